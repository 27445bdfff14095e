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
};
