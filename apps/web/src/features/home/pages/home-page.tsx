import {
  ApiOutlined,
  AppstoreOutlined,
  AuditOutlined,
  SignatureOutlined,
  FileDoneOutlined,
  FileProtectOutlined,
  RightOutlined,
  SafetyCertificateOutlined,
  InsuranceOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { REAL_NAME_STATUS } from '@openseal/core';
import { Alert, Button, Card, Carousel, Col, Row } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import type { PageProps } from '../../../lib/page';
import { identityOf, useAccountInfo } from '../../../hooks/use-session';
import { useSystemConfig } from '../../../hooks/use-system-config';
import type { BannerItem } from '../../../lib/system-config';
import { AnnouncementDialog } from '../components/announcement-dialog';
import { FirstUseTour } from '../../../components/first-use-tour';

interface Entry {
  key: string;
  path: string;
  icon: ReactNode;
  title: string;
  desc: string;
}

export function HomePage(_props: PageProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const config = useSystemConfig();
  const account = useAccountInfo();
  const info = account.data;
  const identity = identityOf(info);
  const hidden = new Set(config.hiddenNav);

  const banners: BannerItem[] =
    config.banners.length > 0
      ? config.banners
      : [{ title: config.systemName ?? t('home.heroTitle'), subtitle: t('home.heroSubtitle') }];

  const verified = info ? info.realNameStatus === REAL_NAME_STATUS.verified : false;
  const realNamePath = identity === 1 ? '/userCenter/infoEnt/realName' : '/userCenter/infoPersonal/realName';

  const quick: Entry[] = [
    {
      key: 'mySeals',
      path: '/sealService/mySealList',
      icon: <InsuranceOutlined />,
      title: t('home.mySeals'),
      desc: t('home.mySealsDesc'),
    },
    {
      key: 'applySeal',
      path: '/sealService/applySeal',
      icon: <FileProtectOutlined />,
      title: t('home.applySeal'),
      desc: t('home.applySealDesc'),
    },
    {
      key: 'signByMe',
      path: '/signService/signByMe',
      icon: <SignatureOutlined />,
      title: t('home.signByMe'),
      desc: t('home.signByMeDesc'),
    },
    {
      key: 'signQuickly',
      path: '/signService/signQuickly',
      icon: <FileDoneOutlined />,
      title: t('home.signQuickly'),
      desc: t('home.signQuicklyDesc'),
    },
    {
      key: 'verify',
      path: '/verifySign',
      icon: <SafetyCertificateOutlined />,
      title: t('home.verify'),
      desc: t('home.verifyDesc'),
    },
    {
      key: 'userCenter',
      path: '/userCenter',
      icon: <UserOutlined />,
      title: t('home.userCenter'),
      desc: t('home.userCenterDesc'),
    },
  ];

  const services: (Entry & { nav: string })[] = [
    {
      key: 'sealService',
      nav: 'sealService',
      path: '/sealService',
      icon: <InsuranceOutlined />,
      title: t('nav.sealService'),
      desc: t('home.sealServiceDesc'),
    },
    {
      key: 'signService',
      nav: 'signService',
      path: '/signService',
      icon: <SignatureOutlined />,
      title: t('nav.signService'),
      desc: t('home.signServiceDesc'),
    },
    {
      key: 'verifySign',
      nav: 'verifySign',
      path: '/verifySign',
      icon: <AuditOutlined />,
      title: t('nav.verifySign'),
      desc: t('home.verifySignDesc'),
    },
    {
      key: 'openPlatform',
      nav: 'openPlatform',
      path: '/openPlatform',
      icon: <ApiOutlined />,
      title: t('nav.openPlatform'),
      desc: t('home.openPlatformDesc'),
    },
    {
      key: 'applicationCenter',
      nav: 'applicationCenter',
      path: '/applicationCenter/applicationCenterHome',
      icon: <AppstoreOutlined />,
      title: t('nav.applicationCenter'),
      desc: t('home.applicationCenterDesc'),
    },
  ];

  return (
    <div className="os-home" data-testid="home-page">
      <Carousel
        autoplay={banners.length > 1}
        autoplaySpeed={6000}
        className="os-home__carousel"
        dots={banners.length > 1}
      >
        {banners.map((banner, index) => (
          <div key={`${banner.title}-${index}`}>
            <div
              className="os-home__banner"
              style={banner.image ? { backgroundImage: `url(${banner.image})` } : undefined}
              data-testid="home-banner"
            >
              <div className="os-home__banner-inner">
                <h1 data-testid="home-banner-title">{banner.title}</h1>
                {banner.subtitle ? <p>{banner.subtitle}</p> : null}
                <div className="os-home__banner-actions">
                  <Button type="primary" size="large" onClick={() => void navigate('/sealService')}>
                    {t('home.startNow')}
                  </Button>
                  <Button size="large" ghost onClick={() => void navigate('/verifySign')}>
                    {t('home.verifyNow')}
                  </Button>
                </div>
              </div>
            </div>
          </div>
        ))}
      </Carousel>

      <div className="os-home__body">
        {info ? (
          <Alert
            className="os-home__realname"
            type={verified ? 'success' : 'warning'}
            showIcon
            data-testid="realname-banner"
            data-verified={verified ? 'true' : 'false'}
            title={
              verified
                ? (config.realNameBannerVerified ?? t('home.realNameVerified'))
                : (config.realNameBannerUnverified ?? t('home.realNameUnverified'))
            }
            action={
              verified ? null : (
                <Button size="small" type="primary" onClick={() => void navigate(realNamePath)}>
                  {t('home.goRealName')}
                </Button>
              )
            }
          />
        ) : null}

        {account.isLoggedIn ? (
          <section className="os-home__section" data-testid="quick-entries">
            <h2 className="os-home__section-title">{t('home.quickTitle')}</h2>
            <Row gutter={[16, 16]}>
              {quick.map((q) => (
                <Col key={q.key} xs={12} md={8} xl={4}>
                  <Link to={q.path} className="os-quick" data-testid={`quick-entry-${q.key}`}>
                    <span className="os-quick__icon">{q.icon}</span>
                    <span className="os-quick__title">{q.title}</span>
                    <span className="os-quick__desc">{q.desc}</span>
                  </Link>
                </Col>
              ))}
            </Row>
          </section>
        ) : null}

        <section className="os-home__section">
          <h2 className="os-home__section-title">{t('home.servicesTitle')}</h2>
          <Row gutter={[16, 16]}>
            {services
              .filter((s) => !hidden.has(s.nav))
              .map((s) => (
                <Col key={s.key} xs={24} md={12} xl={8}>
                  <Card
                    className="os-service"
                    hoverable
                    onClick={() => void navigate(s.path)}
                    data-testid={`service-${s.key}`}
                  >
                    <div className="os-service__icon">{s.icon}</div>
                    <div className="os-service__text">
                      <h3>{s.title}</h3>
                      <p>{s.desc}</p>
                    </div>
                    <RightOutlined className="os-service__go" />
                  </Card>
                </Col>
              ))}
          </Row>
        </section>
      </div>
      <AnnouncementDialog enabled={config.displayAnnouncement} content={config.announcementContent} />
      <FirstUseTour
        page="home"
        steps={[
          { target: 'top-nav', key: 'nav' },
          { target: 'realname-banner', key: 'realName' },
          { target: 'quick-entries', key: 'quick' },
          { target: 'user-dropdown', key: 'account' },
        ]}
      />
    </div>
  );
}
