import { useState } from 'react';
import { Box, Button, HStack, Stack, Text } from '@chakra-ui/react';
import type { CaenCode, CaenService, StepServices } from '../types';
import { CaenSearch, caenLabel, caenSearchTexts } from '../caen-search';
import { ReadOnlyValue } from './EditableValue';
import type { CaenCodes } from './useCaenCodes';

export interface CaenRowsProps {
  codes: CaenCodes;
  search: CaenService['search'];
  t: StepServices['t'];
  maxCodes: number;
  /** Operators add the codes (activity unknown): the block is read-only. */
  byOperator: boolean;
  editable: boolean;
  /** A base for the rows' input ids. */
  idBase: string;
  /** The step's server error about the codes (the send's "Alege codul CAEN principal."): under the primary code's field. */
  serverError?: string;
}

/** Up to this many Rev.3 classes of a split code are offered as buttons; more (4791 became 32): the search below them. */
const SPLIT_CHOICES = 8;

/**
 * A code the request still holds in CAEN Rev.2 because it split (issue 31): what it is, and its CAEN
 * Rev.3 classes to choose from; the dossier is not sent with it.
 */
function SplitCode({ code, editable, t, onChoose }: { code: CaenCode; editable: boolean; t: StepServices['t']; onChoose(next: CaenCode): void }) {
  const choices = code.replaced_by ?? [];
  return (
    <Box role="group" aria-label={t('steps:overview.splitTitle', { code: code.code })} borderLeftWidth="3px" borderColor="border.warning" ps="3">
      <Text fontWeight="semibold">{t('steps:overview.splitTitle', { code: code.code })}</Text>
      <Text>{t(choices.length > SPLIT_CHOICES ? 'steps:overview.splitSearch' : 'steps:overview.splitChoose')}</Text>
      {choices.length <= SPLIT_CHOICES && editable ? (
        <Stack as="ul" listStyleType="none" gap="1" mt="2">
          {choices.map((choice) => (
            <li key={choice.id}>
              <Button variant="outline" size="sm" whiteSpace="normal" textAlign="start" h="auto" py="1" onClick={() => onChoose(choice)}>
                {caenLabel(choice)}
              </Button>
            </li>
          ))}
        </Stack>
      ) : null}
    </Box>
  );
}

/** The CAEN rows (spec 001 §5): the primary code first, secondary ones after it, locked codes read-only, at most `maxCodes`. */
export function CaenRows({ codes: state, search, t, maxCodes, byOperator, editable, idBase, serverError }: CaenRowsProps) {
  const [adding, setAdding] = useState(false);
  const [needsPrimary, setNeedsPrimary] = useState(false);
  const { codes } = state;
  const rowLabel = (index: number) => (index === 0 ? t('steps:overview.primary') : t('steps:overview.secondary', { n: index }));

  if (byOperator) {
    return codes.length ? (
      <Stack as="ul" gap="1" listStyleType="none">
        {codes.map((c, i) => (
          <Text as="li" key={c.id}>
            {rowLabel(i)}: {caenLabel(c)}
          </Text>
        ))}
      </Stack>
    ) : null;
  }

  const texts = caenSearchTexts(t);
  const chosenIds = codes.map((c) => c.id);
  // The server's error goes under the primary code's field; under a locked primary it shows below the rows.
  const primaryLocked = Boolean(codes[0] && state.isLocked(codes[0]));
  const addSecondary = () => {
    if (!codes[0]) {
      setNeedsPrimary(true);
      return;
    }
    setNeedsPrimary(false);
    setAdding(true);
  };

  return (
    <>
      <Text color="fg.muted">{t('steps:overview.caenIntro', { max: maxCodes })}</Text>
      {(codes.length ? codes : [null]).map((code, index) => (
        // By position: a row whose code is replaced stays (its field keeps the focus after the choice).
        <Stack key={index} gap="2" data-testid={`caen-row-${index}`}>
          <HStack align="flex-end" gap="2">
            <Box flex="1">
              {code && state.isLocked(code) ? (
                <ReadOnlyValue label={rowLabel(index)} value={caenLabel(code)} hint={t('steps:overview.lockedCode')} showHint />
              ) : (
                <CaenSearch
                  id={`${idBase}-caen-${index}`}
                  label={rowLabel(index)}
                  value={code}
                  onChange={(next) => state.replaceAt(index, next)}
                  search={search}
                  texts={texts}
                  excludeIds={chosenIds}
                  disabled={!editable}
                  error={index === 0 ? serverError : undefined}
                />
              )}
            </Box>
            {index > 0 && code && !state.isLocked(code) && editable ? (
              <Button variant="outline" colorPalette="red" onClick={() => state.removeAt(index)} aria-label={t('steps:overview.removeCode', { code: code.code })}>
                {t('steps:overview.removeCode', { code: code.code })}
              </Button>
            ) : null}
          </HStack>
          {code?.replaced_by ? <SplitCode code={code} editable={editable} t={t} onChoose={(next) => state.replaceAt(index, next)} /> : null}
        </Stack>
      ))}
      {adding && codes.length < maxCodes ? (
        <CaenSearch
          id={`${idBase}-caen-new`}
          label={rowLabel(codes.length)}
          value={null}
          onChange={(next) => {
            setAdding(false);
            state.append(next);
          }}
          search={search}
          texts={texts}
          excludeIds={chosenIds}
          disabled={!editable}
        />
      ) : null}
      {editable ? (
        <Box>
          <Button variant="outline" onClick={addSecondary} disabled={codes.length >= maxCodes || adding}>
            {t('steps:overview.addSecondary')}
          </Button>
        </Box>
      ) : null}
      {codes.length >= maxCodes ? <Text color="fg.muted">{t('steps:overview.maxCodesReached', { max: maxCodes })}</Text> : null}
      {needsPrimary && !codes[0] ? (
        <Text role="alert" color="fg.error">
          {t('steps:overview.secondaryNeedsPrimary')}
        </Text>
      ) : null}
      {primaryLocked && serverError ? (
        <Text role="alert" color="fg.error">
          {serverError}
        </Text>
      ) : null}
      {state.error ? (
        <Text role="alert" color="fg.error">
          {state.error}
        </Text>
      ) : state.saved ? (
        <Text role="status" color="fg.success">
          {t('steps:overview.saved')}
        </Text>
      ) : null}
    </>
  );
}
