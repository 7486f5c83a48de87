import type { contracts } from '@openseal/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Tour, type TourProps } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SESSION_QUERY_PREFIX, useAccountInfo } from '../../hooks/use-session';
import { apiGet, apiPost } from '../../lib/api-client';
import './first-use-tour.css';

type GuidePage = contracts.GuidePage;
type Check = { page: GuidePage; enabled: boolean; show: boolean; seenAt: string | null };

/** One step: the element it points at (its data-testid) and the key of its words under `tour.<page>`. */
export interface TourStepSpec {
  target: string;
  key: string;
}

/** How long the tour waits for its targets (a list loads after its page) before showing what is there. */
const WAIT_MS = 4_000;
const POLL_MS = 150;

const byTestId = (id: string) => document.querySelector<HTMLElement>(`[data-testid="${CSS.escape(id)}"]`);

/** Whether a dialog (announcement, info change, real name) is open: the tour waits until it is gone. */
function dialogOpen(): boolean {
  return [...document.querySelectorAll<HTMLElement>('.ant-modal-wrap, .ant-drawer-content-wrapper')].some(
    (el) => getComputedStyle(el).display !== 'none' && el.getBoundingClientRect().width > 0,
  );
}

/**
 * The first-use tour of a page (OPERATION_GUIDE, spec section 3; the guidance log of section 7): a
 * signed-in person who has not seen this page's guide gets a few steps pointing at its main controls.
 * Finishing or closing it is logged, so it never shows again for them, on any device. It waits for open
 * dialogs to close and for its targets to appear, skips a target the page does not show (a phone hides
 * the desktop's navigation), and a failed call only means no tour.
 */
export function FirstUseTour({ page, steps }: { page: GuidePage; steps: TourStepSpec[] }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const account = useAccountInfo();
  const key = [SESSION_QUERY_PREFIX, 'guidance', page, account.token];
  const check = useQuery({
    queryKey: key,
    queryFn: () => apiGet<Check>('/v1/guidanceLog/check', { page }, { silent: true }),
    enabled: account.isLoggedIn,
    staleTime: Infinity,
    retry: false,
  });
  const [open, setOpen] = useState(false);
  const [current, setCurrent] = useState(0);
  const [shown, setShown] = useState<TourStepSpec[]>([]);
  const finished = useRef(false);
  const saved = useRef(false);
  const show = check.data?.show === true;
  const stepKeys = steps.map((s) => `${s.target}:${s.key}`).join('|');

  useEffect(() => {
    if (!show || saved.current) return;
    const started = Date.now();
    const timer = window.setInterval(() => {
      if (dialogOpen()) return;
      const present = steps.filter((s) => byTestId(s.target));
      if (present.length < steps.length && Date.now() - started < WAIT_MS) return;
      window.clearInterval(timer);
      if (present.length === 0) return;
      setShown(present);
      setCurrent(0);
      setOpen(true);
    }, POLL_MS);
    return () => window.clearInterval(timer);
    // The steps are compared by their keys: a page re-rendering with equal steps restarts nothing.
  }, [show, stepKeys]);

  const log = (action: 'finished' | 'closed', step: number) => {
    if (saved.current) return;
    saved.current = true;
    setOpen(false);
    queryClient.setQueryData<Check>(key, (old) => (old ? { ...old, show: false } : old));
    // A courtesy: whatever goes wrong, the tour is gone for this visit.
    apiPost('/v1/guidanceLog/save', { page, action, step }, { silent: true }).catch(() => {});
  };

  const tourSteps: TourProps['steps'] = shown.map((s, i) => ({
    title: t(`tour.${page}.${s.key}.title`),
    description: t(`tour.${page}.${s.key}.description`),
    target: () => byTestId(s.target) ?? document.body,
    nextButtonProps: {
      children: i === shown.length - 1 ? t('tour.finish') : t('tour.next'),
      className: 'os-tour__next',
    },
    prevButtonProps: { children: t('tour.prev'), className: 'os-tour__prev' },
  }));

  if (!open) return null;
  return (
    <Tour
      open
      current={current}
      onChange={setCurrent}
      steps={tourSteps}
      rootClassName="os-tour"
      // On a phone the window around a full-width target (the tab bar) stays inside the screen.
      gap={{ offset: window.innerWidth < 768 ? [0, 6] : 6, radius: 6 }}
      // antd calls onClose before onFinish when the last step is finished: decide once both have run.
      onClose={(step) => queueMicrotask(() => log(finished.current ? 'finished' : 'closed', step ?? current))}
      onFinish={() => {
        finished.current = true;
      }}
      indicatorsRender={(c, total) => (
        <span className="os-tour__count" data-testid="first-use-tour-step" data-page={page}>
          {t('tour.step', { current: c + 1, total })}
        </span>
      )}
    />
  );
}
