import {
  AuditOutlined,
  FileDoneOutlined,
  InsuranceOutlined,
  RightOutlined,
  SafetyCertificateOutlined,
  SignatureOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { maskPhone, REAL_NAME_STATUS } from '@openseal/core';
import { Button, Tag } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { identityOf, useAccountInfo } from '../../../hooks/use-session';
import { useSystemConfig } from '../../../hooks/use-system-config';
import type { PageProps } from '../../../lib/page';
import { useTodoCount } from '../api/todo';
import { mobileHref } from '../../../lib/device';
import { FirstUseTour } from '../../../components/first-use-tour';

interface Entry {
  key: string;
  path: string;
  icon: ReactNode;
}

/**
 * The phone home: who is signed in and in which space, what waits for a signature, and the journeys
 * people make on a phone. (An address without a phone page lands here; the mobile frame above the page
 * names it and offers the desktop site.)
 */
export function MobileHomePage(_props: PageProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const config = useSystemConfig();
  const account = useAccountInfo();
  const info = account.data;
  const identity = identityOf(info);
  const todo = useTodoCount(account.isLoggedIn);
  const systemName = config.systemName ?? t('app.defaultName');
  const verified = info?.realNameStatus === REAL_NAME_STATUS.verified;
  const realNamePath = identity === 1 ? '/userCenter/infoEnt/realName' : '/userCenter/infoPersonal/realName';

  const entries: Entry[] = [
    { key: 'signByMe', path: '/signService/signByMe', icon: <SignatureOutlined /> },
    { key: 'signRecord', path: '/signService/signRecord', icon: <FileDoneOutlined /> },
    { key: 'seals', path: '/sealService/mySealList', icon: <InsuranceOutlined /> },
    { key: 'verify', path: '/verifySign', icon: <SafetyCertificateOutlined /> },
    { key: 'getSeal', path: '/getSealFlow', icon: <AuditOutlined /> },
    { key: 'realName', path: realNamePath, icon: <UserOutlined /> },
  ];

  return (
    <div data-testid="mobile-home">
      <section className="os-m-card os-m-section" data-testid="mobile-home-who">
        {account.isLoggedIn && info ? (
          <>
            <div className="os-m-card__head">
              <h2 className="os-m-card__title">
                {t('mobile.home.greeting', {
                  name: info.userInfoPerson.name || maskPhone(info.userInfoPerson.registerMobile),
                })}
              </h2>
              <Tag color={verified ? 'green' : 'orange'} data-testid="mobile-home-realname">
                {verified ? t('mobile.home.realName.verified') : t('mobile.home.realName.none')}
              </Tag>
            </div>
            <div className="os-m-card__meta">
              {t('mobile.home.space')}:{' '}
              {identity === 1 ? (info.userInfoOrg?.organizeName ?? '') : t('mobile.home.personal')}
            </div>
            {!verified ? (
              <div className="os-m-card__actions">
                <Button
                  onClick={() => void navigate(mobileHref(realNamePath))}
                  data-testid="mobile-home-go-realname"
                >
                  {t('mobile.home.realName.go')}
                </Button>
              </div>
            ) : null}
          </>
        ) : (
          <>
            <h2 className="os-m-card__title">{t('mobile.home.guest', { name: systemName })}</h2>
            <div className="os-m-card__meta">{t('mobile.home.guestText')}</div>
            <div className="os-m-card__actions">
              <Button
                type="primary"
                onClick={() => void navigate(mobileHref('/login'))}
                data-testid="mobile-home-login"
              >
                {t('mobile.home.login')}
              </Button>
            </div>
          </>
        )}
      </section>

      {account.isLoggedIn ? (
        <Link
          to={mobileHref('/signService/signByMe')}
          className="os-m-card os-m-section"
          data-testid="mobile-home-todo"
        >
          <div className="os-m-card__head">
            <span className="os-m-card__title">{t('mobile.home.todo')}</span>
            <RightOutlined />
          </div>
          <div className="os-m-card__meta" data-testid="mobile-home-todo-count" data-count={todo.data ?? ''}>
            {todo.data === undefined
              ? '…'
              : todo.data > 0
                ? t('mobile.home.todoCount', { count: todo.data })
                : t('mobile.home.todoNone')}
          </div>
        </Link>
      ) : null}

      <nav className="os-m-grid" data-testid="mobile-home-entries">
        {entries.map((e) => (
          <Link
            key={e.key}
            to={mobileHref(e.path)}
            className="os-m-grid__item"
            data-testid={`mobile-entry-${e.key}`}
          >
            <span className="os-m-grid__icon">{e.icon}</span>
            <span>{t(`mobile.home.entries.${e.key}`)}</span>
          </Link>
        ))}
      </nav>
      <FirstUseTour
        page="home"
        steps={[
          { target: 'mobile-home-who', key: 'realName' },
          { target: 'mobile-home-todo', key: 'todo' },
          { target: 'mobile-home-entries', key: 'entries' },
          { target: 'mobile-tabs', key: 'tabs' },
        ]}
      />
    </div>
  );
}
