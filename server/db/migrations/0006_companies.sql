CREATE TABLE "companies" (
	"fiscal_code" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"address" text NOT NULL,
	"registration_number" text,
	"legal_form" text NOT NULL,
	"county" text,
	"city" text
);
