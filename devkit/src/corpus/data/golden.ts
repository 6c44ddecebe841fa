import type { DemoLanguage, GoldenItem, GoldenSplit, GoldenType } from '../types.js';

type Row = [type: GoldenType, question: string, reference: string, sources: string[]];

const ES: Row[] = [
  ['single-hop', '¿Cuánto cuesta el Lumora Hub?', 'El Lumora Hub cuesta 149 €, con el IVA incluido.', ['hub-1']],
  [
    'single-hop',
    '¿Cuántos dispositivos se pueden emparejar con el Hub?',
    'El Hub admite hasta 120 dispositivos emparejados.',
    ['hub-1'],
  ],
  [
    'single-hop',
    '¿El Termo funciona con suelo radiante eléctrico?',
    'No directamente: el Termo no puede conmutar sistemas eléctricos de 230 V como el suelo radiante eléctrico. Para ellos hace falta el Módulo Relé R2, que se vende aparte por 39 €.',
    ['termo-1'],
  ],
  [
    'single-hop',
    '¿A qué redes Wi-Fi se puede conectar la Cam Exterior?',
    'La Lumora Cam Exterior solo se conecta a redes Wi-Fi de 2,4 GHz.',
    ['cam-1'],
  ],
  [
    'single-hop',
    '¿Cuánto dura la batería de la cámara exterior?',
    'La batería de 6.700 mAh dura hasta 4 meses con un uso típico de unos 20 eventos al día; también puede alimentarse por cable.',
    ['cam-1'],
  ],
  [
    'single-hop',
    '¿Qué incluye Lumora Plus y cuánto cuesta?',
    'Lumora Plus cuesta 4,99 € al mes o 49 € al año. Incluye 30 días de historial de vídeo en la nube para hasta 5 cámaras, detección inteligente de personas, vehículos y paquetes, y zonas de actividad personalizadas.',
    ['planes-1'],
  ],
  [
    'single-hop',
    '¿Cuántos días tengo para devolver algo que compré en la web?',
    'Tienes 30 días naturales desde la entrega para devolver un producto comprado en lumora.es.',
    ['devoluciones-1'],
  ],
  [
    'single-hop',
    '¿Cuánto tarda en llegar el reembolso de una devolución?',
    'El reembolso se emite en 5 a 10 días hábiles desde que el paquete llega al almacén de Valencia, al mismo método de pago de la compra.',
    ['devoluciones-2'],
  ],
  [
    'single-hop',
    '¿Cuánto cuesta el envío a la península y cuánto tarda?',
    'El envío a la península tarda de 24 a 48 horas laborables; es gratis en pedidos de 50 € o más y cuesta 3,95 € en pedidos menores.',
    ['envios-1'],
  ],
  [
    'single-hop',
    '¿Cómo restablezco el Hub a los valores de fábrica?',
    'Mantén pulsado el botón trasero 10 segundos, hasta que el LED parpadee en rojo. Se borran los dispositivos emparejados y las automatizaciones locales, pero no la cuenta ni la suscripción.',
    ['tec-reset-1'],
  ],
  [
    'single-hop',
    '¿Qué significa que la luz del Hub esté naranja?',
    'La luz naranja indica que el Hub no tiene conexión a internet; las automatizaciones locales siguen funcionando, pero no se puede controlar la casa desde fuera.',
    ['tec-led-1'],
  ],
  [
    'single-hop',
    '¿Cuándo se actualiza el firmware de los dispositivos?',
    'Se actualizan automáticamente por la noche, entre las 2:00 y las 5:00 hora local, cuando hay una versión nueva; también se puede forzar desde la app.',
    ['tec-firmware-1'],
  ],
  [
    'single-hop',
    '¿Qué versión de Android necesito para la app de Lumora?',
    'La app necesita Android 10 o posterior (o iOS 16 o posterior en iPhone).',
    ['tec-app-1'],
  ],
  [
    'single-hop',
    '¿A cuántas personas puedo invitar a mi hogar con el plan Plus?',
    'Con Plus o Pro puedes tener hasta 8 miembros en el hogar; con el plan Básico, hasta 2.',
    ['cuenta-1'],
  ],
  [
    'single-hop',
    '¿Dónde se guardan mis grabaciones?',
    'Se guardan cifradas con AES-256 en servidores de la Unión Europea, en Fráncfort y Dublín.',
    ['privacidad-1'],
  ],
  [
    'single-hop',
    '¿Cuál es el horario de atención telefónica?',
    'De lunes a viernes de 9:00 a 20:00 y los sábados de 10:00 a 14:00, hora peninsular, en el 900 83 42 10.',
    ['contacto-1'],
  ],
  [
    'single-hop',
    '¿Cuántos días de vacaciones tenemos en Lumora?',
    '23 días laborables al año, además del 24 y el 31 de diciembre, que son libres.',
    ['rrhh-vacaciones-1'],
  ],
  [
    'single-hop',
    '¿De cuánto es la dieta de un viaje nacional con pernocta?',
    'La dieta con pernocta es de 53,34 € al día (26,67 € sin pernocta).',
    ['rrhh-gastos-1'],
  ],
  [
    'single-hop',
    '¿Qué presupuesto de formación tengo al año?',
    '1.200 € al año para cursos, certificaciones, conferencias o libros, con aprobación del responsable, y hasta 40 horas de la jornada; lo no gastado no se acumula.',
    ['rrhh-formacion-1'],
  ],
  [
    'single-hop',
    '¿Qué día de la semana hay que ir a la oficina?',
    'El martes es día presencial para toda la plantilla en la oficina de Valencia; las personas contratadas en remoto acuden una semana por trimestre.',
    ['rrhh-teletrabajo-1'],
  ],
  [
    'multi-hop',
    'Tengo suelo radiante eléctrico y ningún dispositivo Lumora. ¿Cuánto me cuesta el hardware para controlarlo con el Termo?',
    'Necesitas el Termo (129 €), el Módulo Relé R2 para el sistema de 230 V (39 €) y un Lumora Hub, sin el que el Termo no funciona (149 €): 317 € en total.',
    ['termo-1', 'hub-1'],
  ],
  [
    'multi-hop',
    'Si compro un Hub y un pack de cuatro Enchufes, ¿pago gastos de envío a Zaragoza?',
    'No: el pedido suma 228 € (149 € del Hub y 79 € del pack), por encima de los 50 € a partir de los cuales el envío a la península es gratis; llega en 24 a 48 horas laborables.',
    ['hub-1', 'enchufe-1', 'envios-1'],
  ],
  [
    'multi-hop',
    'Tengo 8 cámaras y quiero historial en la nube. ¿Qué plan necesito y cuánto cuesta al año?',
    'Plus solo cubre 5 cámaras, así que necesitas Lumora Pro, que admite hasta 20 y cuesta 99 € al año (o 9,99 € al mes), con 60 días de historial.',
    ['planes-1', 'planes-2'],
  ],
  [
    'multi-hop',
    'Compré un Enchufe suelto con Bizum y lo devuelvo desde Mallorca porque ya no lo quiero. ¿Cuánto me devuelven y cómo?',
    'Del precio de 24,90 € se descuentan 9,95 € de gastos de devolución desde Baleares, así que recibes 14,95 €. Como pagaste con Bizum, el reembolso se hace por transferencia bancaria al IBAN que indiques, en 5 a 10 días hábiles desde que llega al almacén.',
    ['devoluciones-2', 'enchufe-1'],
  ],
  [
    'multi-hop',
    'Si falla el cobro de mi plan Plus, ¿pierdo los vídeos de la nube?',
    'No de inmediato: se reintenta el cobro hasta 3 veces en 10 días y, si falla, el hogar pasa al plan Básico, pero el historial se conserva 30 días; si pagas lo pendiente, recuperas Plus con todo su historial.',
    ['impago-1', 'planes-1'],
  ],
  [
    'multi-hop',
    'Cancelo mi plan Pro anual a los cuatro meses de contratarlo. ¿Qué reembolso me corresponde?',
    'Pasados los 14 días, en los planes anuales se reembolsan los meses completos no consumidos con una penalización del 10 %: 8 meses de 99 € al año son 66 €, menos 6,60 €, es decir 59,40 €, al mismo método de pago en 5 a 10 días hábiles.',
    ['reembolso-sub-1', 'planes-2'],
  ],
  [
    'multi-hop',
    'La luz de mi Hub está roja fija y lo compré en 2023. ¿Qué hago?',
    'El rojo fijo indica un error de hardware: desconéctalo 10 segundos y, si sigue en rojo, contacta con soporte. Al ser de 2023 está dentro de los 3 años de garantía; tras el diagnóstico remoto te darán un RMA y lo repararán o sustituirán en 15 días hábiles.',
    ['tec-led-1', 'garantia-1', 'garantia-2'],
  ],
  [
    'multi-hop',
    '¿Podéis enviar un pedido a Tenerife? ¿Qué pagaré además del producto?',
    'Sí: el envío a Canarias cuesta 9,95 € y tarda de 5 a 8 días laborables. El pedido se factura sin IVA, pero en la entrega pagas al transportista el IGIC y los gastos de despacho de aduana.',
    ['envios-2', 'impuestos-1'],
  ],
  [
    'multi-hop',
    'Mi pedido ya está en estado "Preparado" y quiero cambiar la dirección. ¿Qué opciones tengo?',
    'En estado "Preparado" ya no se puede modificar. Puedes rechazar la entrega o, una vez recibido, devolverlo dentro de los 30 días naturales desde la entrega.',
    ['envios-3', 'devoluciones-1'],
  ],
  [
    'multi-hop',
    '¿Cuánto cobro al mes por teletrabajar y dónde presento el ticket de un viaje de trabajo?',
    'Lumora abona 35 € al mes por gastos de teletrabajo. Los gastos de viaje se registran en el portal Nido con la foto del ticket o la factura en un plazo de 30 días.',
    ['rrhh-teletrabajo-1', 'rrhh-gastos-1'],
  ],
  [
    'multi-hop',
    'Si cancelo Plus y una semana después elimino la cuenta, ¿se guardan mis vídeos 30 días?',
    'No. Tras cancelar, las grabaciones se conservarían 30 días desde el fin de la suscripción, pero al eliminar la cuenta las grabaciones se borran de inmediato.',
    ['planes-3', 'privacidad-2'],
  ],
  [
    'multi-hop',
    'Soy cliente Pro. ¿En cuánto me responden por correo y a qué horas puedo llamar?',
    'A los clientes Pro se les responde en menos de 4 horas laborables. El teléfono 900 83 42 10 atiende de lunes a viernes de 9:00 a 20:00 y los sábados de 10:00 a 14:00.',
    ['contacto-1', 'planes-2'],
  ],
  [
    'adversarial',
    '¿Cuánto cuesta la Lumora Cam Interior?',
    'La documentación no recoge ninguna Cam Interior: el catálogo solo incluye la Lumora Cam Exterior, que cuesta 99 €.',
    ['cam-1'],
  ],
  [
    'adversarial',
    '¿Por qué el Hub deja de funcionar cuando se cae internet?',
    'La premisa es falsa: las automatizaciones básicas se ejecutan en local y siguen funcionando sin internet (luz naranja). Solo el control remoto desde la app y los asistentes de voz necesitan conexión.',
    ['hub-1', 'tec-led-1'],
  ],
  [
    'adversarial',
    '¿Cómo conecto la Cam Exterior a mi red de 5 GHz?',
    'No se puede: la Cam solo funciona en Wi-Fi de 2,4 GHz. Si el router usa la misma red en ambas bandas, acércate al router durante la configuración o crea una red de 2,4 GHz separada.',
    ['tec-cam-1'],
  ],
  [
    'adversarial',
    '¿Qué recargo me cobráis si falla el pago de la suscripción?',
    'Ninguno: Lumora no cobra recargos ni intereses por los cobros fallidos.',
    ['impago-1'],
  ],
  [
    'adversarial',
    '¿Cuánto tarda un envío a Francia desde la tienda española?',
    'La tienda española no envía fuera de España y Portugal, así que no hay plazo para Francia.',
    ['envios-2'],
  ],
  [
    'adversarial',
    '¿Cómo configuro una receta de IFTTT con mis Enchufes?',
    'No es posible: la integración con IFTTT se retiró en marzo de 2024. Los dispositivos se integran con Alexa, Google Home y Apple Home mediante Matter, y con SmartThings.',
    ['tec-app-1'],
  ],
  [
    'adversarial',
    '¿Qué comisión paga el programa de afiliados de Lumora?',
    'La documentación no contiene información sobre ningún programa de afiliados.',
    [],
  ],
  [
    'adversarial',
    '¿Para qué usa Lumora mis vídeos al entrenar su IA de detección?',
    'La premisa es falsa: Lumora no usa tus vídeos para entrenar modelos de inteligencia artificial ni vende datos personales.',
    ['privacidad-1'],
  ],
];

const EN: Row[] = [
  [
    'single-hop',
    'How much does Lumora Pro cost?',
    'Lumora Pro costs €9.99 a month or €99 a year, with 60 days of cloud history for up to 20 cameras, 24/7 recording on up to 4, advanced energy reports and priority support.',
    ['plans-2'],
  ],
  [
    'single-hop',
    'How long does delivery to Ireland take?',
    'Delivery to Ireland takes 3 to 5 business days and costs €7.95, free on orders of €80 or more.',
    ['shipping-1'],
  ],
  [
    'single-hop',
    'What does a flashing blue light on the Hub mean?',
    'Flashing blue means the Hub is in pairing mode.',
    ['tech-led-1'],
  ],
  [
    'single-hop',
    'What do I need to make a warranty claim?',
    'You need the device serial number and your order number or receipt.',
    ['warranty-1'],
  ],
  [
    'single-hop',
    'How long is the free trial of Lumora Plus?',
    'You get a 30-day free trial of Plus when you set up your first camera; it is never charged unless you add a payment method.',
    ['plans-1'],
  ],
  [
    'single-hop',
    'Can I pay by direct debit from a UK bank account?',
    'No. Direct debit needs a SEPA bank account, which includes Ireland but not the United Kingdom.',
    ['payment-1'],
  ],
  [
    'single-hop',
    'How do I force a firmware update?',
    'In the app, go to Device > Firmware > Check for updates.',
    ['tech-firmware-1'],
  ],
  [
    'single-hop',
    'How many people can I invite to my home on the Basic plan?',
    'Up to 2 members on the Basic plan (up to 8 on Plus or Pro).',
    ['account-1'],
  ],
  [
    'single-hop',
    'Is there a phone number for customer support?',
    'No. The international store has no phone line; support is by chat Monday to Friday, 9 am to 6 pm Irish and UK time, and by email at support@lumora.com.',
    ['support-1'],
  ],
  [
    'single-hop',
    'How many days of annual leave do employees outside Spain get?',
    'At least 25 working days a year plus local public holidays, following the rules of their country of employment.',
    ['hr-leave-1'],
  ],
  [
    'single-hop',
    'What is the maximum load of the Lumora Plug?',
    'It is a 16 A plug rated for loads up to 3,680 W.',
    ['plug-1'],
  ],
  [
    'single-hop',
    'How do I factory reset the Hub?',
    'Hold the button on the back for 10 seconds until the light flashes red. This removes paired devices and local automations, but not your account or subscription.',
    ['tech-reset-1'],
  ],
  [
    'multi-hop',
    'I live in the UK and want to return a Cam I no longer want. How much will I get back?',
    'Change-of-mind returns have the return shipping cost deducted: from the UK that is £8.95, taken off the €99 price of the Cam. You book the courier collection from the returns page, and the refund goes to your original payment method 5 to 10 business days after the parcel reaches Valencia.',
    ['returns-1', 'returns-2', 'cam-1'],
  ],
  [
    'multi-hop',
    'Will I pay import charges on an order to the UK, and how long will it take?',
    'No. UK orders are shipped delivered duty paid, so the checkout price already includes UK VAT at 20 % and duties. Delivery takes 4 to 6 business days and costs £8.95.',
    ['shipping-1', 'invoices-1'],
  ],
  [
    'multi-hop',
    'Can I use the Lumora Plug in my house in Dublin with a Hub?',
    'Not with Irish sockets: the Plug has a Schuko (type F) connector and is not sold for UK or Irish sockets, even though it would otherwise work with the Hub over Thread.',
    ['plug-1', 'hub-1'],
  ],
  [
    'multi-hop',
    'My Cam was replaced with a refurbished unit two years after I bought it. How long is the replacement covered?',
    'A replacement keeps the remaining warranty of the original or 6 months, whichever is longer. With a 3-year warranty and two years used, about one year remains, so it is covered until three years after the original delivery.',
    ['warranty-1', 'warranty-2'],
  ],
  [
    'multi-hop',
    'I have 6 cameras and want cloud history. Which plan do I need and what does it cost per year?',
    'Plus only covers 5 cameras, so you need Lumora Pro, which covers up to 20 cameras for €99 a year.',
    ['plans-1', 'plans-2'],
  ],
  [
    'multi-hop',
    'If my Plus payment fails, when do I lose my cloud history?',
    'The payment is retried up to 3 times over 10 days; if it still fails the home moves to Basic, but the history is kept for 30 days and comes back with Plus once you pay.',
    ['failed-1', 'plans-1'],
  ],
  [
    'multi-hop',
    'I cancelled a yearly Plus plan after three months. What refund do I get?',
    'After 14 days, yearly plans are refunded for the whole months left minus a 10 % fee: 9 months of €49 a year is €36.75, which leaves €33.08 (rounded) after the fee, paid back to the original method within 5 to 10 business days.',
    ['refunds-sub-1', 'plans-1'],
  ],
  [
    'multi-hop',
    'My Hub light is orange. Should my automations still run?',
    'Orange means the Hub has no internet connection. Basic automations between Lumora devices run locally and keep working; only remote control and voice assistants need internet. Restarting the Hub (unplug for 10 seconds) does not delete anything.',
    ['tech-led-1', 'hub-1', 'tech-reset-1'],
  ],
  [
    'adversarial',
    'How do I connect the Cam Outdoor to my 5 GHz Wi-Fi?',
    'You cannot: the Cam only works on 2.4 GHz Wi-Fi. Stand close to the router during setup or create a separate 2.4 GHz network.',
    ['tech-cam-1'],
  ],
  [
    'adversarial',
    'What is the phone number for UK customer support?',
    'There is no phone line for the international store; support is by chat and by email at support@lumora.com.',
    ['support-1'],
  ],
  [
    'adversarial',
    'How much does the Lumora smart doorbell cost?',
    'The knowledge base does not mention any Lumora doorbell, so there is no price to give.',
    [],
  ],
  [
    'adversarial',
    "Why are UK customers' videos stored in the UK?",
    'They are not: recordings are stored on servers in the European Union, in Frankfurt and Dublin, also for UK customers.',
    ['privacy-1'],
  ],
  [
    'adversarial',
    'What late fee do you charge when a payment fails?',
    'None: Lumora charges no late fees or interest on failed payments.',
    ['failed-1'],
  ],
  [
    'adversarial',
    'How do I set up IFTTT applets for my Termo?',
    'You cannot: the IFTTT integration was retired in March 2024. Lumora works with Alexa, Google Home and Apple Home through Matter, and with SmartThings.',
    ['tech-app-1'],
  ],
];

function build(lang: DemoLanguage, rows: Row[]): GoldenItem[] {
  const seen: Record<string, number> = {};
  return rows.map(([type, question, reference, sources], i) => {
    // Alternate dev/test within each stratum so both splits hold every type.
    const n = (seen[type] = (seen[type] ?? -1) + 1);
    const split: GoldenSplit = n % 2 === 0 ? 'dev' : 'test';
    return {
      id: `golden-${lang}-${String(i + 1).padStart(3, '0')}`,
      lang,
      type,
      split,
      question,
      reference,
      sources: sources.map((s) => `${lang}-${s}`),
    };
  });
}

/** The golden set: 40 Spanish and 26 English questions with reference answers grounded in the knowledge base. */
export const GOLDEN_ITEMS: GoldenItem[] = [...build('es', ES), ...build('en', EN)];
