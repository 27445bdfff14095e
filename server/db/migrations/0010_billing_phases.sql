ALTER TABLE "partner_prices" ADD COLUMN "intro_months" integer;--> statement-breakpoint
ALTER TABLE "partner_prices" ADD COLUMN "then_amount_bani" integer;--> statement-breakpoint
ALTER TABLE "partner_prices" ADD COLUMN "then_stripe_price_id" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "provider_subscription_id" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "provider_schedule_id" text;--> statement-breakpoint
CREATE INDEX "payments_provider_subscription_idx" ON "payments" USING btree ("provider_subscription_id");