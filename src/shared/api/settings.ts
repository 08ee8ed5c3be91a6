import { Type, type Static } from 'typebox';

/** The viewer's settings page; the API URL is the page's own origin, so it is not sent. */
export const Settings = Type.Object({
  data_dir: Type.String(),
  version: Type.String(),
  token: Type.Union([Type.String(), Type.Null()], {
    description:
      "The workspace owner's token from the data directory's token file, to a bearer-token caller only; " +
      'null for a browser session or when the file is missing',
  }),
  token_hint: Type.Union([Type.String(), Type.Null()], {
    description: "The token's prefix and last four characters (`sdt_…Wx3Q`); null when the token file is missing",
  }),
});
export type Settings = Static<typeof Settings>;
