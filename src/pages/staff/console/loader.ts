import { staffRoleLoader } from '../guards';

/** The console's pages are an operator's: others are sent to sign in or told they may not. */
export const consoleLoader = staffRoleLoader('operator');
