import fp from 'fastify-plugin';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { themeNamed } from '@fieldlink/domain/app-variant';
import { PALETTES } from '@fieldlink/domain/themes';

/** The icon sizes the console ships (apps/web/public/icons), as install prompts on phones and desktops want them. */
const MANIFEST_ICON_SIZES = [192, 512] as const;

const ManifestQuery = Type.Object({ theme: Type.Optional(Type.String({ maxLength: 40 })) });

/**
 * `GET /manifest.webmanifest` (issue 39 item 1): what makes the console installable. The name is the
 * installation's `PRODUCT_NAME`; the colours are those of the theme in use, which the console names in
 * `?theme=` (the user's choice, or their account's brand), else the installation's `DEFAULT_THEME`.
 * Public, like the console's other files: a browser fetches it without credentials.
 */
export const webManifestPlugin = fp(
  async (app) => {
    const { productName, defaultTheme } = app.config;
    app
      .withTypeProvider<TypeBoxTypeProvider>()
      .get('/manifest.webmanifest', { schema: { hide: true, querystring: ManifestQuery } }, async (request, reply) => {
        const theme = themeNamed(request.query.theme) ?? themeNamed(defaultTheme) ?? 'DEFAULT';
        const palette = PALETTES[theme];
        return reply
          .type('application/manifest+json; charset=utf-8')
          .header('cache-control', 'no-cache')
          .send({
            name: productName,
            short_name: productName,
            id: '/',
            start_url: '/',
            scope: '/',
            display: 'standalone',
            theme_color: palette.topBar,
            background_color: palette.background,
            icons: MANIFEST_ICON_SIZES.map((size) => ({
              src: `/icons/icon-${size}.png`,
              sizes: `${size}x${size}`,
              type: 'image/png',
              purpose: 'any',
            })),
          });
      });
  },
  { name: 'web-manifest', dependencies: ['settings'] },
);
