/**
 * The few browser side effects that leave the app (full-page navigation, closing the window).
 * One object so tests can spy on it: jsdom implements neither.
 */
export const browser = {
  /** Leaves the app for another address (dashboard SSO, the `/auth` callback). */
  assign(url: string): void {
    window.location.assign(url);
  },
  /** Reloads the page (an identity session deleted on another device). */
  reload(): void {
    window.location.reload();
  },
  /** Closes a window the e-mail link opened (browsers ignore it for windows they did not open). */
  close(): void {
    window.close();
  },
  /**
   * Saves a file the app fetched itself under `name` (downloads that need the token in a header, so no
   * plain link): an object URL, revoked later, not at once (the browser may still be reading it).
   */
  save(blob: Blob, name: string): void {
    const url = URL.createObjectURL(blob);
    const link = document.createElement('a');
    link.href = url;
    link.download = name;
    link.hidden = true;
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 30_000);
  },
};
