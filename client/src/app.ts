import type { PropsWithChildren } from 'react';
import './app.scss';
import { preloadNoticeTemplates } from './utils/subscribe';

preloadNoticeTemplates();

function App({ children }: PropsWithChildren) {
  return children;
}
export default App;
