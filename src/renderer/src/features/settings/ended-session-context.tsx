import { useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { userKeys } from '../users/users-api';

interface EndedSession {
  /** The session has ended but the page must stay: the sign-in screen waits until `release`. */
  held: boolean;
  hold: () => void;
  /** Lets the sign-in screen come: the viewer asks who it is again and is told 401. */
  release: () => void;
}

const EndedSessionContext = createContext<EndedSession>({ held: false, hold: () => {}, release: () => {} });

/**
 * Rotating the signed-in user's own tokens ends this browser's session in the same request that
 * answers with the new token, shown only once. Any later request is 401, which swaps the whole
 * viewer for the sign-in screen; while held, that swap waits so the token stays in sight until
 * the user has copied or dismissed it.
 */
export function EndedSessionProvider({ children }: { children: ReactNode }) {
  const client = useQueryClient();
  const [held, setHeld] = useState(false);
  const hold = useCallback(() => setHeld(true), []);
  const release = useCallback(() => {
    setHeld(false);
    void client.invalidateQueries({ queryKey: userKeys.me });
  }, [client]);
  const value = useMemo(() => ({ held, hold, release }), [held, hold, release]);
  return <EndedSessionContext.Provider value={value}>{children}</EndedSessionContext.Provider>;
}

export const useEndedSession = (): EndedSession => useContext(EndedSessionContext);
