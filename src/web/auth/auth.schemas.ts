// The sign-in forms' bodies. Fields are plain strings with generous limits: what a value must
// look like (an email, a long enough password) is the service's rule, answered on the form.
import { Type, type Static } from 'typebox';

const Field = (maxLength: number) => Type.String({ maxLength });
export const CsrfField = Type.String({ maxLength: 128 });
export const NextField = Type.Optional(Field(2048));

export const SignUpForm = Type.Object(
  { _csrf: CsrfField, next: NextField, name: Field(1000), email: Field(1000), password: Field(1000) },
  { additionalProperties: false },
);
export type SignUpForm = Static<typeof SignUpForm>;

export const SignInForm = Type.Object(
  { _csrf: CsrfField, next: NextField, email: Field(1000), password: Field(1000) },
  { additionalProperties: false },
);
export type SignInForm = Static<typeof SignInForm>;

/** Forms whose only field is the CSRF token (sign-out, buttons). */
export const ButtonForm = Type.Object({ _csrf: CsrfField }, { additionalProperties: false });

export const NextQuery = Type.Object({ next: NextField }, { additionalProperties: false });
export type NextQuery = Static<typeof NextQuery>;

export const LinkParams = Type.Object({ token: Type.String({ maxLength: 64 }) });
export type LinkParams = Static<typeof LinkParams>;
