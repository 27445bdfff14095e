import { createToaster } from '@chakra-ui/react';

/** App-wide toasts: top end, 5 seconds (spec 000 §9). */
export const TOAST_DURATION_MS = 5000;

export const toaster = createToaster({
  placement: 'top-end',
  duration: TOAST_DURATION_MS,
  pauseOnPageIdle: true,
});
