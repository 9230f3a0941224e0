import type { PropsWithChildren } from 'react';
import './app.scss';
import { preloadNoticeTemplates } from './utils/subscribe';
import { preloadFromLink } from './seatmap/preload';

preloadNoticeTemplates();
// A seat-map link: its map loads while the page's code is still on its way.
if (process.env.TARO_ENV === 'h5') preloadFromLink(window.location.hash);

function App({ children }: PropsWithChildren) {
  return children;
}
export default App;
