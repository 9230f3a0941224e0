import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App as AntApp } from 'antd';
import { MemoryRouter } from 'react-router-dom';
import { AuthProvider } from '../../src/auth/AuthContext';
import { App } from '../../src/App';
import { reply } from './harness';

function renderApp() {
  return render(
    <AntApp>
      <MemoryRouter initialEntries={['/']}>
        <AuthProvider>
          <App />
        </AuthProvider>
      </MemoryRouter>
    </AntApp>,
  );
}

async function signIn(username: string, password: string) {
  await userEvent.type(screen.getByLabelText('用户名'), username);
  await userEvent.type(screen.getByLabelText('密码'), password);
  await userEvent.click(screen.getByRole('button', { name: /登\s*录/ }));
}

describe('login page', () => {
  it('shows the server message for a wrong password', async () => {
    vi.spyOn(globalThis, 'fetch').mockImplementation(() =>
      reply({ error: { code: 'UNAUTHORIZED', message: '用户名或密码错误' } }, 401),
    );
    renderApp();
    await signIn('organiser', 'nope');
    expect(await screen.findByTestId('login-error')).toHaveProperty('textContent', '用户名或密码错误');
    expect(localStorage.getItem('showtix-admin-token')).toBeNull();
  });

  it('tells a locked-out user when to retry', async () => {
    vi.spyOn(globalThis, 'fetch').mockImplementation(() =>
      reply({ error: { code: 'RATE_LIMITED', message: '登录失败次数过多，请 15 分钟后再试' } }, 429),
    );
    renderApp();
    await signIn('organiser', 'x');
    expect((await screen.findByTestId('login-error')).textContent).toContain('15 分钟');
  });

  it('keeps the token and shows the menu for the roles of the account', async () => {
    const admin = {
      id: '2',
      username: 'sm',
      displayName: '现场经理',
      roles: ['staff_manager'],
      disabled: false,
      lastLoginAt: null,
      createdAt: '',
    };
    vi.spyOn(globalThis, 'fetch').mockImplementation((input) => {
      const path = String(input);
      if (path.endsWith('/login')) return reply({ token: 'tok.en.x', expiresAt: '', admin });
      return reply({ items: [] });
    });
    renderApp();
    await signIn('sm', 'secret-password');
    await waitFor(() => expect(localStorage.getItem('showtix-admin-token')).toBe('tok.en.x'));
    expect(await screen.findByText('检票人员', { selector: '.ant-menu-title-content' })).toBeTruthy();
    // A staff manager does not see the sales, venue or order pages.
    expect(screen.queryByText('订单管理')).toBeNull();
    expect(screen.queryByText('场馆与座位图')).toBeNull();
  });
});
