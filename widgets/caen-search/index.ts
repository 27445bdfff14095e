export { CaenSearch, caenLabel, caenSearchTexts, CAEN_DEBOUNCE_MS, CAEN_MIN_SEARCH, CAEN_PAGE_SIZE, type CaenSearchProps, type CaenSearchTexts } from './CaenSearch';
