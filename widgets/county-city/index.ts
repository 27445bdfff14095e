export { CountyPicker, SEARCH_DEBOUNCE_MS, type CountyPickerProps } from './CountyPicker';
export { CityPicker, CITY_PAGE_SIZE, type CityPickerProps } from './CityPicker';
export { SCROLL_DEBOUNCE_MS, type PlacePickerProps } from './PlaceCombobox';
