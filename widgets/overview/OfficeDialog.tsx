import { Box, Button, Dialog, Portal, Stack, Text } from '@chakra-ui/react';
import type { StepServices } from '../types';
import type { HomeOffice } from './useHomeOffice';

/** The popup of the home office (spec 001 §4): why the office stays at the product, and the services that take a home office. */
export default function OfficeDialog({ office, t }: { office: HomeOffice; t: StepServices['t'] }) {
  return (
    <Dialog.Root open={office.dialogOpen} onOpenChange={(e) => !e.open && office.leaving === null && office.keep()} role="alertdialog" placement="center">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>{t('steps:overview.homeDialogTitle')}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap="3">
                <Text>{t('steps:overview.homeDialogText')}</Text>
                <Text>{t('steps:overview.homeDialogLeaveText')}</Text>
                <OfficeServices office={office} t={t} />
                {office.leaveError ? (
                  <Text role="alert" color="fg.error">
                    {office.leaveError}
                  </Text>
                ) : null}
              </Stack>
            </Dialog.Body>
            <Dialog.Footer flexWrap="wrap" gap="2">
              <Button colorPalette="blue" onClick={office.keep} disabled={office.leaving !== null}>
                {t('steps:overview.keepOffice')}
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

/** The popup's services (seed data): each one's name, what it offers and the button that leaves for it. */
function OfficeServices({ office, t }: { office: HomeOffice; t: StepServices['t'] }) {
  if (office.servicesFailed) {
    return (
      <Text role="alert" color="fg.error">
        {t('steps:overview.servicesError')}
      </Text>
    );
  }
  if (!office.services) return <Text color="fg.muted">{t('steps:overview.servicesLoading')}</Text>;
  return (
    <Stack as="ul" listStyleType="none" gap="3" aria-label={t('steps:overview.servicesLabel')} data-testid="office-services">
      {office.services.map((service) => (
        <Box as="li" key={service.id} borderWidth="1px" borderRadius="l2" p="3">
          <Text fontWeight="semibold">{service.name}</Text>
          {service.description ? (
            <Text fontSize="sm" color="fg.muted">
              {service.description}
            </Text>
          ) : null}
          <Button
            mt="2"
            size="sm"
            variant="outline"
            onClick={() => void office.leave(service)}
            loading={office.leaving === service.id}
            loadingText={t('steps:overview.goToService', { name: service.name })}
            disabled={office.leaving !== null && office.leaving !== service.id}
          >
            {t('steps:overview.goToService', { name: service.name })}
          </Button>
        </Box>
      ))}
    </Stack>
  );
}
