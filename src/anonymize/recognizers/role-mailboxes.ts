/**
 * Mailboxes of a function, not of a person ("soporte@empresa.es", "privacy@shop.co.uk"): they are published so that
 * anyone can write to them, and the judge needs them as written to check an answer that quotes them. On a free
 * mail provider the same local part is somebody's own account and stays personal ("info@gmail.com").
 */
const ROLE_LOCAL_PARTS = new Set(
  `info information informacion contact contacto contacta contactus hello hola support soporte help ayuda helpdesk service
servicio services servicios customerservice customercare atencion atencionalcliente clientes customers care sales ventas
comercial billing facturacion invoices facturas accounts cuentas admin administracion office oficina privacy privacidad dpo
gdpr rgpd legal compliance security seguridad abuse postmaster hostmaster webmaster noreply no-reply donotreply do-not-reply
notifications notificaciones alerts avisos newsletter marketing press prensa media comunicacion jobs empleo careers trabajo
rrhh hr recruiting talent team equipo reservas bookings reservations pedidos orders returns devoluciones tienda shop store
partners proveedores suppliers ops it sistemas tech`.split(/\s+/),
);

/** Free mail providers: an address there belongs to a person whatever its local part. */
const FREE_MAIL = new Set(
  `gmail.com googlemail.com hotmail.com hotmail.es hotmail.co.uk outlook.com outlook.es live.com live.co.uk msn.com yahoo.com
yahoo.es yahoo.co.uk ymail.com icloud.com me.com mac.com aol.com gmx.com gmx.es gmx.de web.de proton.me protonmail.com
pm.me mail.com zoho.com yandex.com yandex.ru tutanota.com hey.com fastmail.com telefonica.net movistar.es orange.es
btinternet.com eircom.net sky.com virginmedia.com`.split(/\s+/),
);

/** `local` and `domain` lower-cased; a "+tag" after the local part is ignored ("support+es@…"). */
export function isRoleMailbox(local: string, domain: string): boolean {
  const base = local.split('+')[0]!.replace(/[._]/g, '');
  return (ROLE_LOCAL_PARTS.has(base) || ROLE_LOCAL_PARTS.has(local.split('+')[0]!)) && !FREE_MAIL.has(domain);
}
