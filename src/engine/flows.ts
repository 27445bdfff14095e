import newPfa from '../../flows/new-pfa.json';
import existingPfa from '../../flows/existing-pfa.json';
import type { Flow } from '@/core/flow';
import type { RegistrationTypeValue } from '@/core/registration';

/** The flow files, bundled with the wizard chunk (the same files the server reads). */
export const FLOWS: Record<RegistrationTypeValue, Flow> = {
  1: existingPfa as unknown as Flow,
  2: newPfa as unknown as Flow,
};
