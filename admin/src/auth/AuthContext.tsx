import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { AdminAccount, AdminRole } from '@showtix/shared-types';
import { onUnauthorized, tokenStore } from '../api/client';
import * as auth from '../api/auth';

interface AuthValue {
  admin: AdminAccount | null;
  /** True until the stored token has been checked. */
  checking: boolean;
  login(username: string, password: string): Promise<void>;
  logout(): Promise<void>;
  can(...roles: AdminRole[]): boolean;
}

const AuthContext = createContext<AuthValue | null>(null);

export function AuthProvider({ children }: { children: ReactNode }) {
  const [admin, setAdmin] = useState<AdminAccount | null>(null);
  const [checking, setChecking] = useState(() => tokenStore.get() !== null);

  useEffect(() => {
    if (!tokenStore.get()) return;
    auth
      .me()
      .then(setAdmin, () => tokenStore.clear())
      .finally(() => setChecking(false));
  }, []);

  useEffect(
    () =>
      onUnauthorized(() => {
        tokenStore.clear();
        setAdmin(null);
      }),
    [],
  );

  const login = useCallback(async (username: string, password: string) => {
    const r = await auth.login(username, password);
    tokenStore.set(r.token);
    setAdmin(r.admin);
  }, []);

  const logout = useCallback(async () => {
    await auth.logout().catch(() => undefined);
    tokenStore.clear();
    setAdmin(null);
  }, []);

  const value = useMemo<AuthValue>(
    () => ({
      admin,
      checking,
      login,
      logout,
      // Mirrors the server's rule: 'admin' may do everything. The server checks again.
      can: (...roles) =>
        !!admin && (admin.roles.includes('admin') || roles.some((r) => admin.roles.includes(r))),
    }),
    [admin, checking, login, logout],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthValue {
  const v = useContext(AuthContext);
  if (!v) throw new Error('useAuth outside AuthProvider');
  return v;
}
