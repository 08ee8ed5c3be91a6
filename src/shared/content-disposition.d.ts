// The `content-disposition` package ships no types; what the server (http/content-disposition.ts)
// and the viewer (lib/attachment-name.ts) use of it.
declare module 'content-disposition' {
  interface ContentDisposition {
    type: string;
    parameters: Record<string, string | undefined>;
  }
  interface Options {
    type?: string;
    /** The ASCII `filename` for old clients; true (the default) replaces non-Latin-1 with `?`. */
    fallback?: string | boolean;
  }
  function contentDisposition(filename?: string, options?: Options): string;
  namespace contentDisposition {
    function parse(header: string): ContentDisposition;
  }
  export = contentDisposition;
}
