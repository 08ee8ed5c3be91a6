import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_WINDOW_STATE,
  fitToDisplays,
  loadWindowState,
  MIN_HEIGHT,
  MIN_WIDTH,
  parseWindowState,
  saveWindowState,
  windowStateFile,
} from '../../../src/main/desktop/window-state';

const PRIMARY = { x: 0, y: 0, width: 1920, height: 1040 };
const RIGHT = { x: 1920, y: 0, width: 1280, height: 1000 };

describe('window-state.json: parsing', () => {
  it.each([null, '', '{', 'null', '[]', '"x"', '42', '{"width":"wide"}'])('falls back to defaults for %j', (text) => {
    expect(parseWindowState(text)).toEqual(DEFAULT_WINDOW_STATE);
  });

  it('keeps valid fields and drops bad ones one by one', () => {
    expect(parseWindowState('{"x":10,"y":20,"width":1000,"height":700,"maximized":true}')).toEqual({
      x: 10,
      y: 20,
      width: 1000,
      height: 700,
      maximized: true,
    });
    expect(parseWindowState('{"x":10,"width":-5,"height":1.5,"maximized":"yes"}')).toEqual(DEFAULT_WINDOW_STATE);
    expect(parseWindowState('{"x":1e308,"y":0,"width":900,"height":600}')).toEqual({
      width: 900,
      height: 600,
      maximized: false,
    });
  });
});

describe('window state fitted to the displays there are now', () => {
  it('keeps a window that is on a display', () => {
    const state = { x: 2000, y: 100, width: 1000, height: 700, maximized: false };
    expect(fitToDisplays(state, [PRIMARY, RIGHT])).toEqual(state);
  });

  it('centres a window whose monitor is gone (off-screen position dropped)', () => {
    const state = { x: 2000, y: 100, width: 1000, height: 700, maximized: true };
    expect(fitToDisplays(state, [PRIMARY])).toEqual({ width: 1000, height: 700, maximized: true });
    expect(fitToDisplays({ ...state, x: -5000, y: -5000 }, [PRIMARY])).not.toHaveProperty('x');
  });

  it('drops a position whose title bar is above the display', () => {
    expect(
      fitToDisplays({ x: 100, y: -200, width: 1000, height: 700, maximized: false }, [PRIMARY]),
    ).not.toHaveProperty('y');
  });

  it('clamps an oversized or tiny window to the display and the minimum', () => {
    expect(fitToDisplays({ width: 5000, height: 5000, maximized: false }, [PRIMARY])).toEqual({
      width: 1920,
      height: 1040,
      maximized: false,
    });
    expect(fitToDisplays({ width: 10, height: 10, maximized: false }, [PRIMARY])).toEqual({
      width: MIN_WIDTH,
      height: MIN_HEIGHT,
      maximized: false,
    });
  });

  it('pulls a window mostly off the right edge back so that it can be grabbed', () => {
    const fitted = fitToDisplays({ x: 1800, y: 100, width: 1000, height: 700, maximized: false }, [PRIMARY]);
    expect(fitted.x).toBe(1800);
    const narrow = fitToDisplays({ x: 1850, y: 100, width: 1000, height: 700, maximized: false }, [PRIMARY]);
    expect(narrow.x).toBeUndefined();
  });

  it('passes the state through without displays', () => {
    expect(fitToDisplays({ x: 1, y: 2, width: 3, height: 4, maximized: false }, [])).toEqual({
      x: 1,
      y: 2,
      width: 3,
      height: 4,
      maximized: false,
    });
  });
});

describe('window-state.json on disk', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'scandesk-window-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('round-trips, and survives a missing or corrupt file', () => {
    const file = windowStateFile(dir);
    expect(loadWindowState(file, [PRIMARY])).toEqual(DEFAULT_WINDOW_STATE);
    const state = { x: 40, y: 50, width: 1100, height: 750, maximized: true };
    saveWindowState(file, state);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(state);
    expect(loadWindowState(file, [PRIMARY])).toEqual(state);
    writeFileSync(file, '{"x": 40, "y": ');
    expect(loadWindowState(file, [PRIMARY])).toEqual(DEFAULT_WINDOW_STATE);
  });
});
