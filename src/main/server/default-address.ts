// Where `scandesk serve`, the desktop app and the CLI meet when nobody says otherwise
// (docs/contract/api.md#running).
export const DEFAULT_PORT = 4790;
export const DEFAULT_HOST = '127.0.0.1';
