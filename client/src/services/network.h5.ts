/** Browser variant of network.ts: navigator.onLine and the online/offline events. */
export function watchNetwork(cb: (online: boolean) => void): () => void {
  const on = () => cb(true);
  const off = () => cb(false);
  cb(navigator.onLine !== false);
  window.addEventListener('online', on);
  window.addEventListener('offline', off);
  return () => {
    window.removeEventListener('online', on);
    window.removeEventListener('offline', off);
  };
}
