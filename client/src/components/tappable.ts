import type { ReactNode } from 'react';

/** What our tappable controls (BusyButton, Choice) take besides their look: test id, tap, content. */
export interface Tappable {
  testid: string;
  onClick: () => void;
  children: ReactNode;
}
