import { Link, type LinkProps } from '@chakra-ui/react';
import { Link as RouterLink, type To } from 'react-router';

/** A Chakra-styled link to a route of the app. */
export function AppLink({ to, children, ...props }: Omit<LinkProps, 'href'> & { to: To }) {
  return (
    <Link asChild colorPalette="brand" color="colorPalette.fg" textDecoration="underline" textUnderlineOffset="3px" {...props}>
      <RouterLink to={to}>{children}</RouterLink>
    </Link>
  );
}
