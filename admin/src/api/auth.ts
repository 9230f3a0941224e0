import type { AdminAccount, AdminLoginResult } from '@showtix/shared-types';
import { api } from './client';

const BASE = '/api/v1/admin';

export const me = () => api<AdminAccount>('GET', `${BASE}/me`);
export const login = (username: string, password: string) =>
  api<AdminLoginResult>('POST', `${BASE}/login`, { username, password });
export const logout = () => api<void>('POST', `${BASE}/logout`);
