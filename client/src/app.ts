import type { PropsWithChildren } from 'react';
import './app.scss';
import { preloadNoticeTemplates } from './utils/subscribe';
import { preloadFromLink } from './seatmap/preload-link';

preloadNoticeTemplates();
preloadFromLink(); // a seat-map link (H5): its map loads while the page's code is on its way

function App({ children }: PropsWithChildren) {
  return children;
}
export default App;
