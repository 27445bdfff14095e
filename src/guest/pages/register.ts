import { startGuestPage } from '../start';

startGuestPage({ route: '/register/:partner?', guestOnly: false, load: () => import('@/pages/register/TypeSelectionPage').then((m) => m.TypeSelectionPage) });
