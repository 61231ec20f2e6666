/** The state every Coil panel shows for its call: busy while it runs, then the answer or the refusal, never both from one call. */
import { describe, expect, it } from 'vitest';
import { PanelRequest } from '../../src/lib/ui/request.svelte';

describe('PanelRequest', () => {
  it('is busy while the call runs and keeps its answer', async () => {
    const request = new PanelRequest<{ n: number }>();
    let finish: (v: { n: number }) => void = () => {};
    const running = request.run(() => new Promise((resolve) => (finish = resolve)));
    expect(request.busy).toBe(true);
    finish({ n: 1 });
    await running;
    expect([request.busy, request.result, request.error]).toEqual([false, { n: 1 }, null]);
  });

  it('shows a refusal by its code, clears it on the next call, and drops the old answer only when asked', async () => {
    const request = new PanelRequest<{ n: number }>();
    await request.run(async () => ({ n: 1 }));
    await request.run(async () => {
      throw Object.assign(new Error('The Coil is invalid'), { code: 'COIL_INVALID' });
    });
    expect(request.error).toMatchObject({ code: 'COIL_INVALID' });
    expect(request.result).toEqual({ n: 1 });
    expect(request.busy).toBe(false);

    const again = request.run(() => new Promise(() => {}), { clearResult: true });
    expect([request.error, request.result]).toEqual([null, null]);
    void again;
  });
});

describe('one-button Coil panels', () => {
  it('keep their button and its test id, with no answer or refusal before the call', async () => {
    const { render } = await import('svelte/server');
    type AnyPanel = Parameters<typeof render>[0];
    const panels = {
      validate: (await import('../../src/lib/components/coil/ValidatePanel.svelte')).default,
      'risk-audit': (await import('../../src/lib/components/coil/RiskAuditPanel.svelte')).default,
      share: (await import('../../src/lib/components/coil/SharePanel.svelte')).default,
    };
    for (const [id, Panel] of Object.entries(panels)) {
      const { body } = render(Panel as AnyPanel, { props: { coil: {} } } as never);
      expect(body, id).toContain(`data-testid="${id}-button"`);
      expect(body, id).toContain(`data-testid="panel-${id}"`);
      expect(body, id).not.toContain(`data-testid="${id}-result"`);
      expect(body, id).not.toContain(`data-testid="${id}-error"`);
    }
  });
});
