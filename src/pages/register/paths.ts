/** /register/:partner? and /register/account/:partner?, keeping the partner slug and the query string. */
export function typeSelectionPath(partner: string | undefined, search: string): string {
  return `/register${partner ? `/${encodeURIComponent(partner)}` : ''}${search}`;
}

export function accountPath(partner: string | undefined, search: string): string {
  return `/register/account${partner ? `/${encodeURIComponent(partner)}` : ''}${search}`;
}
