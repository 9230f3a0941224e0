/** The mini-program opens pages by path, not by a link the app reads at start: nothing to start early. */
export function preloadFromLink(): void {}
