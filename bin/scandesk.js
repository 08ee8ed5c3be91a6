#!/usr/bin/env node
// Runs the CLI from its TypeScript sources, so that it works right after `npm ci` without a build.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/run.ts');
