import { boolean, index, integer, pgTable, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

// Applicants and their partners: partners and their prices, user accounts, their facts and tokens.

/** Partners (unaffiliated, the credit partner `icredit`, the courier partner, ...). */
export const partners = pgTable('partners', {
  id: serial('id').primaryKey(),
  slug: text('slug').notNull().unique(),
  name: text('name').notNull(),
  isUnaffiliated: boolean('is_unaffiliated').notNull().default(false),
  /** Shown on the pricing step (spec 001 §2 item 8). */
  description: text('description'),
  /** Footnote under the price, where the spec gives one. */
  footnote: text('footnote'),
  sortOrder: integer('sort_order').notNull().default(0),
  isActive: boolean('is_active').notNull().default(true),
});

/** A partner's prices; `stripePriceId` is the payment provider's price id (spec 000 §3). */
export const partnerPrices = pgTable('partner_prices', {
  id: serial('id').primaryKey(),
  partnerId: integer('partner_id').notNull().references(() => partners.id),
  description: text('description').notNull(),
  stripePriceId: text('stripe_price_id').notNull().unique(),
  /** Amount in bani (1/100 RON). */
  amountBani: integer('amount_bani').notNull(),
  currency: text('currency').notNull().default('RON'),
  interval: text('interval').notNull().default('month'),
  sortOrder: integer('sort_order').notNull().default(0),
  /**
   * An introductory phase (the credit partner's 130 lei for 3 months, then 72): `amountBani` is
   * billed for `introMonths` intervals, then `thenAmountBani` (`thenStripePriceId`) every interval.
   * All three null: one amount throughout.
   */
  introMonths: integer('intro_months'),
  thenAmountBani: integer('then_amount_bani'),
  thenStripePriceId: text('then_stripe_price_id'),
});

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    /** Stored lower-cased and trimmed. */
    email: text('email').notNull(),
    phone: text('phone').notNull(),
    passwordHash: text('password_hash').notNull(),
    registrationType: smallint('registration_type').notNull(),
    partnerId: integer('partner_id').notNull().references(() => partners.id),
    referralCode: text('referral_code'),
    marketingAccepted: boolean('marketing_accepted').notNull().default(false),
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    dashboardRedirect: boolean('dashboard_redirect').notNull().default(false),
    stopFlow: boolean('stop_flow').notNull().default(false),
    /** Public id used in unsubscribe links; reveals nothing about the user. */
    frontendId: text('frontend_id').notNull().unique(),
    unsubscribedAt: timestamp('unsubscribed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('users_email_unique').on(t.email)],
);

/** Key/value facts about a user: tracked cookies, user-source entries, acknowledgements. */
export const userMeta = pgTable(
  'user_meta',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    metaKey: text('meta_key').notNull(),
    metaValue: text('meta_value').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('user_meta_user_idx').on(t.userId, t.metaKey)],
);

/**
 * Every secret handed to a browser or a mail: access tokens, single-use auto-login links,
 * e-mail verification and password reset tokens. Only the SHA-256 of the secret is stored.
 */
export const tokens = pgTable(
  'tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['access', 'auto_login', 'email_verify', 'password_reset'] }).notNull(),
    tokenHash: text('token_hash').notNull(),
    /** For access tokens: which application asked (`/auth?source=`), else null. */
    source: text('source'),
    /** For auto-login links: the named route to open. */
    redirect: text('redirect'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    usedAt: timestamp('used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /** For access tokens: last request made with it (written at most once a minute); idle expiry counts from here. */
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('tokens_hash_unique').on(t.tokenHash), index('tokens_user_idx').on(t.userId, t.purpose)],
);
