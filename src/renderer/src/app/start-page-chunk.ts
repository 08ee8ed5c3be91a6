import { pageChunks } from './page-chunks';
import { pageOfPath } from './page-of-path';

// main.tsx imports this first: the chunk of the page the URL shows is fetched and compiled while
// React, the router and the rest of the entry are evaluated, instead of once the router has
// started. Its outcome is the router's to handle, when it asks for the same chunk.
const page = pageOfPath(window.location.pathname);
if (page) void pageChunks[page]().catch(() => undefined);
