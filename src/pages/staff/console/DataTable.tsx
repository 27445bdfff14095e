import type { ReactNode } from 'react';
import { Box, chakra } from '@chakra-ui/react';

/**
 * A plain HTML table (caption, header cells with scope) styled with Chakra's style props: the app's
 * Chakra system has no table recipe, and adding one would grow every page's entry. It scrolls
 * sideways on a phone, as a focusable region named by its caption.
 */
const Table = chakra('table');
const Caption = chakra('caption');
const Th = chakra('th');
const Td = chakra('td');

export function DataTable({ caption, children }: { caption: string; children: ReactNode }) {
  return (
    <Box overflowX="auto" tabIndex={0} role="region" aria-label={caption} borderWidth="1px" borderRadius="l2">
      <Table width="full" fontSize="sm" borderCollapse="collapse">
        <Caption textAlign="start" fontWeight="semibold" px="3" py="2">
          {caption}
        </Caption>
        {children}
      </Table>
    </Box>
  );
}

export function HeaderCell({ children }: { children: ReactNode }) {
  return (
    <Th scope="col" textAlign="start" px="3" py="2" bg="bg.muted" borderBottomWidth="1px" whiteSpace="nowrap">
      {children}
    </Th>
  );
}

export function Cell({ children }: { children: ReactNode }) {
  return (
    <Td px="3" py="2" borderBottomWidth="1px" verticalAlign="top">
      {children}
    </Td>
  );
}
