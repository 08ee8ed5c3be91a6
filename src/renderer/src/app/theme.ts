import { useCallback, useEffect, useState } from 'react';

export type ThemeChoice = 'system' | 'light' | 'dark';
const KEY = 'scandesk.theme';

function stored(): ThemeChoice {
  const value = localStorage.getItem(KEY);
  return value === 'light' || value === 'dark' ? value : 'system';
}

/** Light and dark follow the system unless the person picks one; the choice survives reloads. */
export function useTheme(): { theme: ThemeChoice; cycle: () => void } {
  const [theme, setTheme] = useState<ThemeChoice>(stored);
  useEffect(() => {
    if (theme === 'system') {
      document.documentElement.removeAttribute('data-theme');
      localStorage.removeItem(KEY);
    } else {
      document.documentElement.setAttribute('data-theme', theme);
      localStorage.setItem(KEY, theme);
    }
  }, [theme]);
  const cycle = useCallback(() => setTheme((t) => (t === 'system' ? 'dark' : t === 'dark' ? 'light' : 'system')), []);
  return { theme, cycle };
}
