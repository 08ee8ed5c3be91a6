import { Type, type Static } from 'typebox';
import { Label } from './common';

/** A tool prefix as the viewer's filter takes it: a tool name's rule, compared case-insensitively. */
export const ToolPrefix = {
  ...Label,
  description:
    'the start of a tool name, letter case aside (as policies compare tools); `%` and `_` are plain characters (extension)',
};

/** `GET /v1/tools` (extension): the tools of the scans the caller can see. */
export const ToolListQuery = Type.Object({ prefix: Type.Optional(ToolPrefix) }, { additionalProperties: false });
export type ToolListQuery = Static<typeof ToolListQuery>;

export const ToolCount = Type.Object({
  name: Type.String({ description: 'the tool as scans name it; names differing in case are listed apart' }),
  scans: Type.Integer({ minimum: 1, description: 'visible scans of this tool' }),
});
export type ToolCount = Static<typeof ToolCount>;

export const ToolList = Type.Object({
  tools: Type.Array(ToolCount, { description: 'by name, letter case aside' }),
});
export type ToolList = Static<typeof ToolList>;
