// Who is signed in, and which sub-brand and environment the screens act on. The choice is kept
// in localStorage, so a reload stays where the operator was; it travels to the server as the
// X-Sub-Brand-Id and X-Environment headers of every GraphQL request.
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import type { SessionInfo } from './http';

export type Environment = 'test' | 'live';

type SessionState = {
  session: SessionInfo | null;
  setSession(session: SessionInfo | null): void;
  subBrandId: string | null;
  setSubBrandId(id: string): void;
  environment: Environment;
  setEnvironment(env: Environment): void;
};

const Ctx = createContext<SessionState | null>(null);

const stored = (key: string) => {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
};
const store = (key: string, value: string) => {
  try {
    localStorage.setItem(key, value);
  } catch {
    // private mode: the choice lasts until reload
  }
};

/** The tenant a fresh session starts on: the remembered choice if still reachable, else the first. */
export function startingTenant(session: SessionInfo): {
  subBrandId: string | null;
  environment: Environment;
} {
  const chosen = stored('pr.subBrand');
  return {
    subBrandId:
      session.subBrands.find((s) => s.id === chosen)?.id ?? session.subBrands[0]?.id ?? null,
    environment: stored('pr.environment') === 'live' ? 'live' : 'test',
  };
}

export function SessionProvider(props: { initial: SessionInfo | null; children: ReactNode }) {
  const [session, setSessionState] = useState(props.initial);
  const [chosen, setChosen] = useState<string | null>(stored('pr.subBrand'));
  // Test by default: a slip in test mode cannot touch real players (docs/backoffice.md).
  const [environment, setEnv] = useState<Environment>(
    stored('pr.environment') === 'live' ? 'live' : 'test',
  );
  const setSession = useCallback((s: SessionInfo | null) => setSessionState(s), []);
  // A remembered sub-brand this account may no longer reach falls back to its first one.
  const subBrandId =
    session?.subBrands.find((s) => s.id === chosen)?.id ?? session?.subBrands[0]?.id ?? null;
  const value = useMemo<SessionState>(
    () => ({
      session,
      setSession,
      subBrandId,
      setSubBrandId: (id) => {
        store('pr.subBrand', id);
        setChosen(id);
      },
      environment,
      setEnvironment: (env) => {
        store('pr.environment', env);
        setEnv(env);
      },
    }),
    [session, setSession, subBrandId, environment],
  );
  return <Ctx.Provider value={value}>{props.children}</Ctx.Provider>;
}

export function useSession(): SessionState {
  const value = useContext(Ctx);
  if (!value) throw new Error('useSession outside SessionProvider');
  return value;
}

type SubBrandName = { id: string; brandName: string; name: string };

/** How a sub-brand is named on every screen: its brand, then its own name. */
export const subBrandLabel = (s: Omit<SubBrandName, 'id'>) => `${s.brandName} · ${s.name}`;

/** The staff member's sub-brands' labels by id (owners and columns name sub-brands by id). */
export const subBrandNames = (staff: { subBrands: SubBrandName[] }) =>
  new Map(staff.subBrands.map((s) => [s.id, subBrandLabel(s)]));

/** The signed-in session; screens behind sign-in only. */
export function useStaff(): SessionInfo & { isPlatformAdmin: boolean; readOnly: boolean } {
  const { session } = useSession();
  if (!session) throw new Error('useStaff without a session');
  return {
    ...session,
    isPlatformAdmin: session.staff.role === 'platform_admin',
    readOnly: session.staff.role === 'support',
  };
}
