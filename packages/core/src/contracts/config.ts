import { z } from 'zod';

export const configCodeValue = z.object({
  code: z.string(),
  value: z.string().nullable(),
  fileKeyBase64: z.string().nullable().describe('data URL of an image value, when the config is an image'),
});
export const configValues = z.object({ configCodeValueBos: z.array(configCodeValue) });
export const configValuesRequest = z.object({ codes: z.array(z.string().max(64)).max(100) });
export const configValueRequest = z.object({ code: z.string().max(64) });
export const dynamicConfigQuery = z.object({ sceneKey: z.string().max(64) });

export const paymentConfig = z.object({
  sandbox: z.boolean(),
  channels: z.array(z.object({ code: z.string(), name: z.string(), enabled: z.boolean() })),
  isNeedAmount: z.boolean(),
});
export const goodsConfig = z.object({
  goods: z.array(
    z.object({
      code: z.string(),
      name: z.string(),
      unitPriceFen: z.number().int(),
      minQuantity: z.number().int(),
      maxQuantity: z.number().int(),
      maxSealsPerKey: z.number().int().nullable(),
    }),
  ),
});
export type ConfigCodeValue = z.infer<typeof configCodeValue>;
