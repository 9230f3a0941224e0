import { vi } from 'vitest';
import { render } from '@testing-library/react';
import { App as AntApp } from 'antd';
import type { ReactNode } from 'react';

const JSON_TYPE = { 'content-type': 'application/json' };

/** A server answer: the body as JSON, or a string body as it is (with the headers given). */
export const reply = (body: unknown, status = 200, headers: Record<string, string> = JSON_TYPE) =>
  Promise.resolve(new Response(typeof body === 'string' ? body : JSON.stringify(body), { status, headers }));

/** Answers every fetch with `answer`'s response; the spy records the calls. */
export const serveFetch = (answer: (url: string, init?: RequestInit) => Promise<Response>) =>
  vi.spyOn(globalThis, 'fetch').mockImplementation((url, init) => answer(String(url), init));

/** The first request sent with that method, as [url, init]. */
export const sentWith = (fetch: ReturnType<typeof serveFetch>, method: string) =>
  fetch.mock.calls.find(([, init]) => init?.method === method)!;

/** Renders `ui` inside antd's App, as the admin shell does (message and modal need it). */
export const renderInApp = (ui: ReactNode) => render(<AntApp>{ui}</AntApp>);
