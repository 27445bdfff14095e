import type { RouteObject } from 'react-router';
import { RegistrationType } from '@/core/registration';
import { AppLoading, AppRoot, RouteError } from './AppRoot';
import { accountLoader, authLoader, flowLoader, guestOnlyLoader, homeLoader } from './guards';

/**
 * The route table of spec 000 §2.1 (and 001 §2). Every page is a lazy route of its own chunk:
 * the login page loads no wizard, form-engine or register code.
 */
export const routes: RouteObject[] = [
  {
    id: 'root',
    Component: AppRoot,
    HydrateFallback: AppLoading,
    ErrorBoundary: RouteError,
    children: [
      { index: true, loader: homeLoader, Component: () => null },

      // Guest only
      {
        id: 'guest',
        loader: guestOnlyLoader,
        children: [
          { path: 'login', lazy: () => import('@/pages/login/LoginPage').then((m) => ({ Component: m.LoginPage })) },
          { path: 'auto-login', lazy: () => import('@/pages/AutoLoginPage').then((m) => ({ Component: m.AutoLoginPage })) },
          { path: 'password/forgot', lazy: () => import('@/pages/ForgotPasswordPage').then((m) => ({ Component: m.ForgotPasswordPage })) },
          { path: 'password/reset', lazy: () => import('@/pages/ResetPasswordPage').then((m) => ({ Component: m.ResetPasswordPage })) },
        ],
      },

      // Any visitor
      { path: 'auth', lazy: () => import('@/pages/login/AuthPage').then((m) => ({ Component: m.AuthPage })) },
      { path: 'email/verify-success', lazy: () => import('@/pages/email/EmailPages').then((m) => ({ Component: m.EmailVerifiedPage })) },
      { path: 'email/already-verified', lazy: () => import('@/pages/email/EmailPages').then((m) => ({ Component: m.EmailAlreadyVerifiedPage })) },
      { path: 'unsubscribe/:frontend_id?', lazy: () => import('@/pages/UnsubscribePage').then((m) => ({ Component: m.UnsubscribePage })) },
      { path: 'register/:partner?', lazy: () => import('@/pages/register/TypeSelectionPage').then((m) => ({ Component: m.TypeSelectionPage })) },
      { path: 'register/account/:partner?', lazy: () => import('@/pages/register/AccountPage').then((m) => ({ Component: m.AccountPage })) },

      // Signed in
      {
        id: 'auth',
        loader: authLoader,
        children: [
          { path: 'logout', lazy: () => import('@/pages/LogoutPage').then((m) => ({ Component: m.LogoutPage })) },
          {
            path: 'inregistrare/chestionar/info',
            lazy: () => import('@/pages/QuestionnaireInfoPage').then((m) => ({ Component: m.QuestionnaireInfoPage })),
          },
          // The hand-over to the accounting dashboard (single sign-on) once the existing PFA is signed.
          { path: 'dashboard', lazy: () => import('@/pages/DashboardPage').then((m) => ({ Component: m.DashboardPage })) },
          // The built-in checkout (payments without Stripe): the pricing step's redirect_url.
          { path: 'checkout/:paymentId', lazy: () => import('@/pages/checkout/CheckoutPage').then((m) => ({ Component: m.CheckoutPage })) },
        ],
      },
      // "Datele tale" (issue 32): signed in, never handed over to the dashboard (accountLoader); a guest signs in and comes back.
      {
        path: 'contul-meu/date',
        loader: accountLoader('my-data'),
        lazy: () => import('@/pages/account/MyDataPage').then((m) => ({ Component: m.MyDataPage })),
      },
      {
        id: 'existing-company',
        path: 'inregistrare',
        loader: flowLoader(RegistrationType.existingCompany),
        lazy: () => import('@/pages/flow/FlowLayout').then((m) => ({ Component: m.ExistingFlowLayout })),
        children: [
          { path: 'plata', lazy: () => import('@/pages/flow/PaymentPage').then((m) => ({ Component: m.ExistingPaymentPage })) },
          // The wizard (src/engine) guards its steps itself: any step URL lands on the server's current step; an address that is no step shows the 404 copy.
          { index: true, lazy: () => import('@/pages/flow/FlowStepsPage').then((m) => ({ Component: m.FlowStepsPage })) },
          { path: '*', lazy: () => import('@/pages/flow/FlowStepsPage').then((m) => ({ Component: m.FlowStepsPage })) },
        ],
      },
      {
        id: 'requesting-company',
        path: 'infiintare-pfa',
        loader: flowLoader(RegistrationType.requestingCompany),
        lazy: () => import('@/pages/flow/FlowLayout').then((m) => ({ Component: m.RequestingFlowLayout })),
        children: [
          { path: 'plata', lazy: () => import('@/pages/flow/PaymentPage').then((m) => ({ Component: m.NewPaymentPage })) },
          { path: 'status', lazy: () => import('@/pages/flow/StatusPage').then((m) => ({ Component: m.StatusPage })) },
          // The wizard (src/engine) guards its steps itself: any step URL lands on the server's current step; an address that is no step shows the 404 copy.
          { index: true, lazy: () => import('@/pages/flow/FlowStepsPage').then((m) => ({ Component: m.FlowStepsPage })) },
          { path: '*', lazy: () => import('@/pages/flow/FlowStepsPage').then((m) => ({ Component: m.FlowStepsPage })) },
        ],
      },

      // Staff (issue 18): their own session (src/pages/staff/session.ts), every module lazy. The
      // layout's loader sends a visitor without a staff session to /staff/login; a page for one role
      // adds `loader: staffRoleLoader('operator')` (src/pages/staff/guards.ts) in its lazy module.
      {
        path: 'staff/login',
        lazy: () => import('@/pages/staff/StaffLoginPage').then((m) => ({ Component: m.StaffLoginPage, loader: m.staffLoginLoader })),
      },
      {
        id: 'staff',
        path: 'staff',
        lazy: () => import('@/pages/staff/StaffLayout').then((m) => ({ Component: m.StaffLayout, loader: m.staffLoader })),
        children: [
          { index: true, lazy: () => import('@/pages/staff/StaffHomePage').then((m) => ({ Component: m.StaffHomePage })) },
          // The operator console: operators only (another role goes to /staff with the "no access" notice).
          { path: 'dossiers', lazy: () => import('@/pages/staff/console/DossiersPage').then((m) => ({ Component: m.DossiersPage, loader: m.consoleLoader })) },
          { path: 'dossiers/:id', lazy: () => import('@/pages/staff/console/DossierPage').then((m) => ({ Component: m.DossierPage, loader: m.consoleLoader })) },
          // Editors: every step of the flow files as the applicant sees it (issue 18 "Preview").
          { path: 'preview', lazy: () => import('@/pages/staff/preview/PreviewPage').then((m) => ({ Component: m.PreviewPage, loader: m.previewLoader })) },
          { path: '*', lazy: () => import('@/pages/staff/StaffHomePage').then((m) => ({ Component: m.StaffNotFoundPage })) },
        ],
      },

      { path: '*', lazy: () => import('@/pages/NotFoundPage').then((m) => ({ Component: m.NotFoundPage })) },
    ],
  },
];
