import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

// The main window's size, position and maximized state across launches, in
// <userData>/window-state.json. Pure logic and file access only, apart from Electron: the shell
// passes in the displays' work areas, so that corrupt files and vanished monitors are unit-tested.

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface WindowState {
  /** Absent: let the window manager place (centre) the window. */
  x?: number;
  y?: number;
  width: number;
  height: number;
  maximized: boolean;
}

export const DEFAULT_WINDOW_STATE: WindowState = { width: 1280, height: 820, maximized: false };
export const MIN_WIDTH = 640;
export const MIN_HEIGHT = 480;
/** How much of the top edge must be on a display for the window to be dragged back. */
const GRAB_WIDTH = 100;
const GRAB_HEIGHT = 30;

export const windowStateFile = (userData: string): string => join(userData, 'window-state.json');

const isInteger = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && Math.abs(value) < 1_000_000;

/** Whatever the file holds, a usable state: anything malformed falls back to the defaults. */
export function parseWindowState(text: string | null): WindowState {
  if (text === null) return { ...DEFAULT_WINDOW_STATE };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ...DEFAULT_WINDOW_STATE };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ...DEFAULT_WINDOW_STATE };
  const record = value as Record<string, unknown>;
  const state: WindowState = {
    width: isInteger(record.width) && record.width > 0 ? record.width : DEFAULT_WINDOW_STATE.width,
    height: isInteger(record.height) && record.height > 0 ? record.height : DEFAULT_WINDOW_STATE.height,
    maximized: record.maximized === true,
  };
  // A position only counts whole: x without y would place the window half by chance.
  if (isInteger(record.x) && isInteger(record.y)) {
    state.x = record.x;
    state.y = record.y;
  }
  return state;
}

function overlap(a: Rect, b: Rect): { width: number; height: number } {
  return {
    width: Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x),
    height: Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y),
  };
}

const clamp = (value: number, min: number, max: number): number => Math.min(Math.max(value, min), max);

/**
 * Fits a state to the displays there are now (the first work area is the primary display's): the
 * size is clamped to the display it will be on, and a position whose title bar would not be
 * reachable on any display (a monitor unplugged since) is dropped, so the window is centred.
 */
export function fitToDisplays(state: WindowState, workAreas: readonly Rect[]): WindowState {
  const primary = workAreas[0];
  if (!primary) return { ...state };
  let target = primary;
  let position: { x: number; y: number } | null = null;
  const { x, y } = state;
  if (x !== undefined && y !== undefined) {
    const titleBar: Rect = { x, y, width: state.width, height: GRAB_HEIGHT };
    // The whole height of the title bar, and a grabbable width of it, must be on one display.
    const onDisplay = workAreas.find((area) => {
      const seen = overlap(titleBar, area);
      return seen.width >= Math.min(GRAB_WIDTH, state.width) && seen.height >= GRAB_HEIGHT;
    });
    if (onDisplay) {
      target = onDisplay;
      position = { x, y };
    }
  }
  const width = clamp(state.width, Math.min(MIN_WIDTH, target.width), target.width);
  const height = clamp(state.height, Math.min(MIN_HEIGHT, target.height), target.height);
  const fitted: WindowState = { width, height, maximized: state.maximized };
  if (position) {
    // Keep it where it was, but pulled back so that a shrunk window stays inside its display.
    fitted.x = clamp(position.x, target.x - width + GRAB_WIDTH, target.x + target.width - GRAB_WIDTH);
    fitted.y = clamp(position.y, target.y, target.y + target.height - GRAB_HEIGHT);
  }
  return fitted;
}

/** The saved state fitted to the current displays; the defaults when there is no usable file. */
export function loadWindowState(file: string, workAreas: readonly Rect[]): WindowState {
  let text: string | null;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    text = null;
  }
  return fitToDisplays(parseWindowState(text), workAreas);
}

/** Written whole then renamed: a crash mid-write leaves the old file, never half a new one. */
export function saveWindowState(file: string, state: WindowState): void {
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(state)}\n`);
  renameSync(temporary, file);
}
