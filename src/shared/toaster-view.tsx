import { Portal, Stack, Toast, Toaster as ChakraToaster } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { toaster } from './toaster';

/**
 * Where the toasts of `toaster` show. Its own chunk, loaded by AppProviders after the first render (the
 * toast machine is not needed to paint a page; a toast created before it arrives waits in the store).
 */
export function Toaster() {
  const { t } = useTranslation('common');
  return (
    <Portal>
      <ChakraToaster toaster={toaster} insetInline={{ mdDown: '4' }}>
        {(toast) => (
          <Toast.Root width={{ md: 'sm' }}>
            <Toast.Indicator />
            <Stack gap="1" flex="1" maxWidth="100%">
              {toast.title && <Toast.Title>{toast.title}</Toast.Title>}
              {toast.description && <Toast.Description>{toast.description}</Toast.Description>}
            </Stack>
            {toast.closable && <Toast.CloseTrigger aria-label={t('close')} />}
          </Toast.Root>
        )}
      </ChakraToaster>
    </Portal>
  );
}
