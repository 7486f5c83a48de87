import type { GuideChapter } from '../model/guide';

/** The user guide in English. */
export const GUIDE_EN: GuideChapter[] = [
  {
    id: 'start',
    title: 'Getting started',
    summary: 'Log in, switch between your personal and organisation spaces, and find your way around.',
    blocks: [
      {
        p: 'The unified electronic seal public service platform lets people and organisations apply for and manage electronic seals, sign files and verify signatures. Every use of a seal leaves an evidence record anyone can check.',
      },
      {
        steps: [
          'Open the platform and click "Log in" at the top right.',
          'Enter your mobile number, then the SMS code you receive; an account with a password can also log in with it.',
          'Your personal account is created at the first login. If you belong to an organisation, switch to its space from the account menu at the top right.',
        ],
      },
      { shot: 'login', caption: 'The login page: SMS code or password' },
      {
        p: 'Once logged in, the home page lists the common services: apply for a seal, quick sign, waiting for me, and verify a signature. The navigation at the top is on every page.',
      },
      { shot: 'home', caption: 'The home page after logging in' },
      {
        tip: 'On a phone the platform opens its phone pages, with four tabs at the bottom (Home, Seals, Sign, Me). Where a page is only on the desktop, "Continue to desktop" takes you there.',
      },
      { shot: 'phone-home', caption: 'The phone home page' },
    ],
  },
  {
    id: 'realName',
    title: 'Real-name verification',
    summary: 'Verify your person or your organisation before you sign or use seals.',
    blocks: [
      {
        p: 'Real-name verification confirms who you are. A person is checked by name, ID number and mobile number; an organisation by its registered name, unified social credit code and legal representative, and whoever verifies it becomes its super administrator.',
      },
      {
        steps: [
          'Go to "User centre → Personal info" and click "Verify".',
          'Enter your name, ID number and mobile number, submit, then enter the SMS code.',
          'The check usually takes seconds; the result page says verified, or why not. A failed attempt can be started again.',
        ],
      },
      { shot: 'realname-person', caption: 'Verifying a person' },
      {
        tip: 'An organisation is verified under "User centre → Organisation info → Real-name", by its legal representative, by a bank transfer, or by manual review.',
      },
    ],
  },
  {
    id: 'seals',
    title: 'Seals',
    summary: 'Apply for, receive, authorise and manage electronic seals.',
    blocks: [
      {
        p: 'An organisation may apply for its legal-name seal and for finance, invoice, contract and business seals, among others; a person for a name seal or a hand-drawn signature. The platform CA issues a certificate for every seal.',
      },
      {
        steps: [
          'Go to "Seal service → Apply for a seal", pick the kind and check the preview.',
          'Upload materials where asked (such as the police filing receipt), submit, and wait for the review.',
          'Once approved, the legal representative receives the seal, and it can sign.',
        ],
      },
      { shot: 'seal-apply', caption: 'Applying for a seal: the kind and its preview' },
      {
        p: '"My seals" lists every seal with its status. From there you can view, disable, freeze or cancel a seal, and authorise members to use it, with a number of uses and a validity.',
      },
      { shot: 'seal-list', caption: 'My seals' },
      {
        tip: 'Only the legal representative receives seals, and nobody can grant a permission they do not hold.',
      },
    ],
  },
  {
    id: 'signing',
    title: 'Signing',
    summary: 'Quick sign, signing with others, confirming intent, and the records.',
    blocks: [
      {
        p: 'Files are signed as PDF. Every signature is a PAdES digital signature with a trusted timestamp, which Adobe Reader and other tools can check too.',
      },
      {
        steps: [
          'Go to "Sign service → Quick sign" and upload your files (several if you like, each a contract or an attachment). A password-protected PDF asks for its password.',
          'To have others sign, add them on the right and choose signing in order or in any order.',
          'Click "Next" and drag your seal or signature onto the page; on a phone, drag with a finger and pinch to zoom.',
          'Click "Sign", confirm your intent with the SMS code, and the file is signed.',
        ],
      },
      { shot: 'sign-upload', caption: 'Uploading the files to sign' },
      { shot: 'sign-place', caption: 'Dragging the seal into place' },
      { shot: 'sign-will', caption: 'Confirming intent with an SMS code' },
      {
        p: '"Waiting for me" lists what you have to sign; "Sign records" lists every signing you started or took part in. A record\'s detail lets you download the signed files and shows its log and evidence.',
      },
      { shot: 'sign-list', caption: 'Sign records' },
      {
        tip: 'People you invite receive a text with a short link, which opens the signing page on their phone.',
      },
    ],
  },
  {
    id: 'verifying',
    title: 'Verifying signatures',
    summary: 'Check a PDF signed by any tool: valid, invalid, or signer not confirmed.',
    blocks: [
      {
        steps: [
          'Click "Verify" at the top and upload a signed PDF (no login needed).',
          'The platform checks every signature: whether the file changed, whether a trusted authority issued the certificate, whether it was valid when signing, and whether later changes were allowed.',
          "The result gives each signature's verdict and its reasons; a PDF report can be downloaded.",
        ],
      },
      { shot: 'verify-result', caption: 'A verification result' },
      {
        p: 'There are three verdicts. Valid: the signature is intact and its signer confirmed. Invalid: the signature is broken, or the file was changed in a way it forbids. Signer not confirmed: the signature is intact, but no authority this platform trusts issued its certificate (a self-signed one, say), so treat it with care.',
      },
      {
        tip: 'A file signed on this platform also shows its evidence record, with a proof bundle to check offline.',
      },
    ],
  },
  {
    id: 'ukeys',
    title: 'UKeys',
    summary: 'Order, bind and use hardware UKey seals.',
    blocks: [
      {
        p: 'A UKey is a hardware device holding a seal\'s private key, which never leaves it. Organisations see their bound UKeys under "Seal service → UKey management", where they also order, renew and unbind them.',
      },
      {
        steps: [
          'Choose the UKey medium when you apply for a seal, and submit.',
          'When the UKey arrives, plug it in and bind it under "UKey management" (you enter its PIN).',
          'To sign, pick the UKey seal, plug the UKey in and enter its PIN.',
        ],
      },
      { shot: 'ukey-manage', caption: 'UKey management' },
    ],
  },
  {
    id: 'faq',
    title: 'FAQ',
    summary: 'What people often ask about logging in, signing and verifying.',
    blocks: [
      {
        p: 'No SMS code? Check the number; a new code can be asked for after 60 seconds. After several failures, wait a while.',
      },
      {
        p: "A file will not upload? Files to sign are PDF (or OFD) within the platform's size limit, and the same file cannot be uploaded twice. A password-protected PDF needs its password, which is kept encrypted and used only to sign that file.",
      },
      {
        p: 'Why "signer not confirmed"? The signature is intact, but its certificate does not come from this platform or an authority it trusts. Ask the other party for their platform\'s root certificate; the platform operator can add it as a trust anchor.',
      },
      {
        p: 'Can a file be changed after signing? No. A change to the signed content breaks the signature, and the verification lists every change made after each signature.',
      },
      {
        p: 'How do developers connect? The open platform offers an API and webhooks; see the API reference.',
      },
      { link: { text: 'API reference (developers)', href: '/docs' } },
    ],
  },
];
