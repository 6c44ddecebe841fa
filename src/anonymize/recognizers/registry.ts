import type { Recognizer } from '../types.js';
import { addressRecognizer } from './address.js';
import { creditCardRecognizer } from './credit-card.js';
import { dateOfBirthRecognizer } from './date-of-birth.js';
import { emailRecognizer } from './email.js';
import { esNieRecognizer } from './es-nie.js';
import { esNifRecognizer } from './es-nif.js';
import { ibanRecognizer } from './iban.js';
import { ipAddressRecognizer } from './ip-address.js';
import { personRecognizer } from './person.js';
import { createPhoneRecognizer } from './phone.js';
import { secretRecognizer } from './secret.js';
import { urlRecognizer } from './url.js';

export interface RegistryOptions {
  /** Regions tried for phone numbers without an international prefix (ISO 3166 alpha-2). */
  phoneRegions: string[];
}

/** Every recognizer, in no particular order: overlaps are resolved afterwards by length and score. */
export function createRecognizers(options: RegistryOptions): Recognizer[] {
  return [
    emailRecognizer,
    createPhoneRecognizer({ regions: options.phoneRegions }),
    esNifRecognizer,
    esNieRecognizer,
    ibanRecognizer,
    creditCardRecognizer,
    ipAddressRecognizer,
    addressRecognizer,
    dateOfBirthRecognizer,
    secretRecognizer,
    urlRecognizer,
    personRecognizer,
  ];
}
