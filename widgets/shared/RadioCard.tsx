import type { ReactNode } from 'react';
import { Box, RadioGroup, Text } from '@chakra-ui/react';

export interface RadioCardProps {
  value: string;
  title: string;
  /** Lines under the title (muted): a hint, an address. */
  children?: ReactNode;
  selected: boolean;
  disabled?: boolean;
  padding?: '3' | '4';
}

/** One choice of a radio group drawn as a bordered card: its title in bold, details under it; blue border when chosen. */
export function RadioCard({ value, title, children, selected, disabled, padding = '3' }: RadioCardProps) {
  return (
    <Box borderWidth="1px" borderRadius="md" p={padding} borderColor={selected ? 'blue.500' : 'border'}>
      <RadioGroup.Item value={value} disabled={disabled} alignItems="flex-start">
        <RadioGroup.ItemHiddenInput />
        <RadioGroup.ItemIndicator />
        <RadioGroup.ItemText>
          <Text as="span" display="block" fontWeight="semibold">
            {title}
          </Text>
          {children}
        </RadioGroup.ItemText>
      </RadioGroup.Item>
    </Box>
  );
}

/** A muted line under a radio card's title. */
export function RadioCardLine({ children }: { children: ReactNode }) {
  return (
    <Text as="span" display="block" color="fg.muted">
      {children}
    </Text>
  );
}
