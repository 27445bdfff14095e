/** Signs a staff member in for a web test (the console's staff session). */
export function signInStaff(): void {
  localStorage.setItem('staff', JSON.stringify({ access_token: 'staff-tok' }));
}
