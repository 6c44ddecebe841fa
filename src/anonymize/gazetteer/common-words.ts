/**
 * Frequent Spanish and English words that end a name: after "me llamo" or "Cliente:" a word from this list is not a
 * name ("soy cliente", "Agente: Buenos días", "Dear customer"). Folded (lower case, no accents). Whitespace separated.
 */
export const COMMON_WORDS_ES = `
a al algo algun alguna alguno algunos ante antes aqui asi aun aunque bajo bien cada casi como con contra cual cuales cuando
de del desde donde dos durante e el ella ellas ellos en entre era eran es esa ese eso esta estaba estan estar este esto estos
estoy fue fueron ha habia han hasta hay he la las le les lo los mas me mi mis mucho muy nada ni no nos nosotros nuestro o os
otra otro para pero poco por porque que quien se sea segun ser si sido sin sobre son su sus tal tambien tan tanto te tengo
tiene tienen todo todos tu tus un una uno unos usted ustedes vosotros y ya yo hola buenas buenos dias tardes noches gracias
muchas saludos saludo atentamente cordialmente un abrazo besos adios hasta luego vale ok okay si claro perfecto genial bueno
buena mal cliente clienta usuario usuaria titular agente soporte equipo atencion servicio tecnico tecnica departamento
administracion sistema empresa banco tienda pedido factura cuenta tarjeta telefono correo email mail numero dni nombre
apellido apellidos direccion fecha nacimiento problema consulta pregunta respuesta ayuda duda dudas favor informacion
importante urgente nuevo nueva viejo vieja primero primera segundo ultimo ultima mismo misma otro otra sr sra don dona
senor senora senorita estimado estimada querido querida hoy ayer manana ahora siempre nunca todavia tarde pronto ya
lunes martes miercoles jueves viernes sabado domingo enero febrero marzo abril mayo junio julio agosto septiembre octubre
noviembre diciembre espanol espanola ingles inglesa frances francesa aleman alemana italiano italiana portugues europeo
espana madrid barcelona valencia sevilla europa america consulto llamo escribo necesito quiero queria quisiera puedo
podria tengo tenia he hecho pague pagado recibido recibi enviado envie cobrado cobraron compre comprado devolucion
reembolso cancelar cancelacion cambio cambiar actualizar activar desactivar acceso contrasena clave pin codigo seguro
seguridad privacidad datos personal personales protegido protegida nuevo estado pendiente confirmado confirmada
resuelto resuelta abierto cerrado incidencia ticket caso referencia nota resumen asunto adjunto documento contrato
poliza producto precio importe total iva euros euro dolares hora horas minutos semana mes ano anos plazo dia
interesado interesada responsable encargado encargada director directora gerente jefe jefa medico medica doctor doctora
paciente abogado abogada asesor asesora comercial vendedor vendedora operador operadora cajero cajera
`;

/** The English ones: a word written with a Spanish accent ("Germán") is none of them. */
export const COMMON_WORDS_EN = `
the a an and or but if then than that this these those there here is are was were be been being am do does did done have
has had having i me my mine we us our you your yours he him his she her hers it its they them their what which who whom whose
when where why how all any both each few more most other some such no nor not only own same so too very can could will would
shall should may might must of to in on at by for with about against between into through during before after above below
from up down out off over under again further once hello hi hey dear thanks thank regards best kind sincerely cheers yours
please sorry okay ok yes yeah sure great good bad fine well customer client user agent support team service desk department
account card order invoice payment bank store shop phone email mail number name surname address date birth problem issue
question answer help request information urgent new old first second last today yesterday tomorrow now always never still
monday tuesday wednesday thursday friday saturday sunday january february march april june july august september october
november december english spanish french german italian european american british manager director doctor patient lawyer
advisor operator cashier holder owner contact sender recipient staff member employee ticket case reference note summary
subject attached document contract policy product price amount total tax hour hours minutes week month year years
calling writing need want wanted would like just also already really actually here there trying looking wondering
interested responsible in charge available unable able happy glad pleased afraid sure not going
from to cc bcc re fw fwd de para asunto enviado sent subject
`;

export const COMMON_WORDS = `${COMMON_WORDS_ES}\n${COMMON_WORDS_EN}`;
