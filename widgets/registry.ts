import { createElement, lazy, Suspense, type ComponentType } from 'react';

/**
 * The names flow files may use: `"ui:widget": "<name>"` for one field, `"ui:field": "<name>"`
 * for a whole step form. Each loads lazily, so a step only downloads its own widgets.
 * Add a widget: create widgets/<name>/, add one line here, use the name in a flow file.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyProps = any;

/** rjsf wants plain components, not React.lazy objects: wrap each in a Suspense boundary. */
function lazyComponent(load: () => Promise<{ default: ComponentType<AnyProps> }>): ComponentType<AnyProps> {
  const Lazy = lazy(load);
  const Loaded = (props: AnyProps) => createElement(Suspense, { fallback: null }, createElement(Lazy, props));
  return Loaded;
}

export const widgets: Record<string, ComponentType<AnyProps>> = {
  questionnaire: lazyComponent(() => import('./questionnaire/QuestionnaireWidget')),
  cardChoice: lazyComponent(() => import('./card-choice/CardChoiceWidget')),
  pricePlans: lazyComponent(() => import('./price-plans/PricePlansWidget')),
};

export const fields: Record<string, ComponentType<AnyProps>> = {
  activities: lazyComponent(() => import('./activities/ActivitiesField')),
  civilStatus: lazyComponent(() => import('./civil-status/CivilStatusField')),
  identity: lazyComponent(() => import('./id-capture/IdentityField')),
  signature: lazyComponent(() => import('./signature-pad/SignatureField')),
  mailingAddress: lazyComponent(() => import('./mailing-address/MailingAddressField')),
  icreditOffice: lazyComponent(() => import('./icredit-office/IcreditOfficeField')),
  documents: lazyComponent(() => import('./documents/DocumentsField')),
  overview: lazyComponent(() => import('./overview/OverviewField')),
  confirmCompany: lazyComponent(() => import('./confirm-company/ConfirmCompanyField')),
};
