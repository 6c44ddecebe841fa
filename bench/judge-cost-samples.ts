/**
 * Bench corpus for `bench/judge-cost`: 20 RAG samples, 10 Spanish and 10 English, shaped like the issue's
 * reference measurement (~80-word answers, 4 retrieved chunks of ~110 words). Five topics per language with
 * three chunks each; every sample retrieves its topic's three chunks (in varying order) plus one chunk of
 * another topic, and some answers add a claim the chunks do not support.
 */
import type { RagSample } from '../src/sample.js';

type Topic = { chunks: [string, string, string] };

const en: Record<string, Topic> = {
  vacuum: {
    chunks: [
      'PostgreSQL uses multiversion concurrency control, so an UPDATE or DELETE never overwrites a row in place. The old row version stays in the table as a dead tuple until no running transaction can still see it. VACUUM scans tables, marks the space of dead tuples as reusable and updates the visibility map, which lets index-only scans skip heap pages. A plain VACUUM does not return space to the operating system and runs alongside normal reads and writes, because it only takes a SHARE UPDATE EXCLUSIVE lock. VACUUM FULL rewrites the whole table into a new file and does return space, but it holds an ACCESS EXCLUSIVE lock for the entire time. Because of that lock, VACUUM FULL is normally run only in a maintenance window, and tools such as pg_repack are used to reclaim space online without blocking queries for long.',
      'The autovacuum launcher starts worker processes that vacuum and analyze tables automatically. A table is vacuumed when its number of dead tuples exceeds autovacuum_vacuum_threshold plus autovacuum_vacuum_scale_factor times the number of rows; the defaults are 50 rows and 0.2, so a table with ten million rows waits for two million dead tuples. For large, frequently updated tables operators usually lower the scale factor per table with ALTER TABLE ... SET (autovacuum_vacuum_scale_factor = 0.01). The number of concurrent workers is limited by autovacuum_max_workers, three by default, and their speed by the cost-based delay settings. The cost limit and cost delay settings make autovacuum pause after a certain amount of input and output, which protects foreground queries but can let vacuum fall behind on very busy tables.',
      'Transaction IDs in PostgreSQL are 32-bit counters, so they wrap around after about four billion transactions. To keep old rows visible, VACUUM freezes tuples older than vacuum_freeze_min_age, replacing their transaction ID with a special frozen marker. When the oldest unfrozen transaction in a table reaches autovacuum_freeze_max_age, two hundred million by default, autovacuum starts an aggressive anti-wraparound vacuum even if autovacuum is disabled for that table. If freezing falls too far behind, the server stops accepting new transactions to protect data, and an administrator must run VACUUM in single-user mode. Monitoring the age of datfrozenxid for each database with a simple query warns operators long before this point, and most teams alert when it passes half of the limit.',
    ],
  },
  probes: {
    chunks: [
      'Kubernetes uses three kinds of container probes. A liveness probe tells the kubelet whether the container is still healthy; when it fails failureThreshold times in a row, the kubelet kills the container and the restart policy applies. A readiness probe tells whether the container can serve traffic; while it fails, the pod is removed from the endpoints of every Service that selects it, but the container is not restarted. A startup probe protects slow-starting applications: while it has not yet succeeded, liveness and readiness checks are disabled, so a long initialisation does not trigger restarts. Probes are defined per container in the pod specification, so a pod with a sidecar can give each container its own liveness and readiness rules and its own timing.',
      'Each probe runs one of four mechanisms: an HTTP GET that succeeds on a status code between 200 and 399, a TCP socket that succeeds when the port accepts a connection, a gRPC health check, or an exec command that succeeds when it exits with code zero. The timing fields are initialDelaySeconds, periodSeconds with a default of ten seconds, timeoutSeconds with a default of one second, successThreshold and failureThreshold with a default of three. A common mistake is a liveness probe that calls a database, because a database outage then restarts every replica at once. The probe request comes from the kubelet on the node, not from the Service, so network policies must allow traffic from the node to the probe port.',
      'For a service that needs two minutes to load a model at start-up, a startup probe with periodSeconds 10 and failureThreshold 12 gives it up to 120 seconds before the kubelet gives up. Readiness probes should check only what the pod itself needs to answer requests, and they are the right place to shed load during a temporary overload. Liveness probes should be cheap and conservative, detecting only deadlocks or states the process cannot leave on its own. Setting the same endpoint for liveness and readiness is discouraged, since a brief overload would restart pods instead of only taking them out of rotation. Probe failures are recorded as events on the pod, and kubectl describe pod shows the last failure message, which is the first place to look when containers restart in a loop.',
    ],
  },
  certs: {
    chunks: [
      "cert-manager is a Kubernetes controller that obtains and renews X.509 certificates. A Certificate resource names the secret to write, the DNS names, and an issuer. Issuers and ClusterIssuers describe where certificates come from: an ACME server such as Let's Encrypt, a private certificate authority stored in a secret, HashiCorp Vault, or a self-signed issuer for bootstrapping. The controller creates a CertificateRequest, completes the issuer's flow, and stores the signed certificate, the private key and the CA certificate in a Kubernetes secret of type kubernetes.io/tls that ingress controllers and workloads can mount. The status of each Certificate resource reports whether it is ready, when it expires and when the next renewal is planned, which makes it easy to monitor with kubectl or with Prometheus metrics.",
      "By default cert-manager renews a certificate when two thirds of its lifetime have passed, so a ninety-day Let's Encrypt certificate is renewed about thirty days before it expires. The renewBefore field of the Certificate resource overrides this window. Renewal writes the new key pair into the same secret; pods that mount the secret as a volume see the new files after the kubelet syncs them, usually within a minute, but an application must reload them itself. Applications that read the certificate only at start-up keep serving the old one until they restart, which is why many teams add a reloader sidecar. Ingress controllers such as ingress-nginx watch their secrets and pick up a renewed certificate without a restart, so only applications that terminate TLS themselves need extra work.",
      "For ACME issuers cert-manager supports two challenge types. HTTP-01 proves control of a domain by serving a token under /.well-known/acme-challenge/ on port 80, which requires the domain to be reachable from the internet and cannot issue wildcard certificates. DNS-01 proves control by creating a TXT record through the DNS provider's API, works for internal services and wildcard names, but needs credentials for the DNS zone. Let's Encrypt enforces rate limits, including fifty certificates per registered domain per week, so staging issuers should be used while testing a configuration. Failed challenges appear as Challenge and Order resources whose status explains the error, for example a DNS record that has not propagated yet or a firewall that blocks port 80.",
    ],
  },
  kafka: {
    chunks: [
      'In Apache Kafka a consumer group is a set of consumers that share the work of reading a topic. Each partition is assigned to exactly one consumer of the group at a time, so the useful parallelism of a group is bounded by the number of partitions: with twelve partitions, a thirteenth consumer stays idle. Different groups read the same topic independently, each with its own committed offsets. Offsets are stored in the internal __consumer_offsets topic, and a consumer resumes from the last committed offset after a restart, or from auto.offset.reset when none exists. The auto.offset.reset setting accepts earliest, which replays the whole retained history, or latest, which starts with new records only and skips anything produced while the group was absent.',
      'A rebalance reassigns partitions when a consumer joins, leaves, or is considered dead. A consumer is considered dead when it misses heartbeats for session.timeout.ms, or when it does not call poll within max.poll.interval.ms, five minutes by default. With the classic eager protocol every consumer revokes all of its partitions during a rebalance, which stops consumption for the whole group. The cooperative sticky assignor revokes only the partitions that move, and static membership with group.instance.id lets a restarted consumer rejoin without triggering a rebalance at all. A static member that stays away for longer than its session timeout is still removed from the group, and its partitions are then reassigned to the remaining consumers as usual.',
      'Kafka offers at-least-once delivery by default: if a consumer processes records and crashes before committing, the records are delivered again after the rebalance. Committing before processing gives at-most-once delivery instead. Exactly-once processing within Kafka uses idempotent producers and transactions, where the consumer offsets are committed inside the same transaction as the output records, and downstream consumers read with isolation.level set to read_committed. Long processing times per batch should be handled by lowering max.poll.records rather than by raising timeouts indefinitely. Consumer lag, the difference between the latest offset of a partition and the committed offset of the group, is the main metric to watch, because it grows whenever consumers fall behind the producers.',
    ],
  },
  asyncio: {
    chunks: [
      'CPython has a global interpreter lock, the GIL, which allows only one thread to execute Python bytecode at a time. Threads still help for input and output, because the GIL is released while a thread waits on a socket, a file or a sleep, but CPU-bound pure Python code does not run faster with more threads. The multiprocessing module and ProcessPoolExecutor sidestep the GIL by using separate processes, at the cost of pickling arguments and results. Python 3.13 introduced an experimental free-threaded build in which the GIL can be disabled, with some single-thread slowdown. Extension modules written in C, such as NumPy, often release the GIL during long computations, so threads can speed up numerical code that spends most of its time inside such libraries.',
      'asyncio runs coroutines on a single-threaded event loop. A coroutine gives control back to the loop at every await, so thousands of network connections can be served by one thread as long as no coroutine blocks. Calling a blocking function such as time.sleep or a synchronous HTTP client inside a coroutine stalls every other task on the loop. Blocking calls should be moved to a thread with asyncio.to_thread or loop.run_in_executor. asyncio.gather runs awaitables concurrently and returns their results in order, and a TaskGroup cancels the remaining tasks when one of them fails. Tasks created with asyncio.create_task must be kept referenced by the program, because the event loop holds only weak references and an unreferenced task can be garbage collected before it finishes.',
      'Timeouts in asyncio are expressed with asyncio.timeout, added in Python 3.11, or the older asyncio.wait_for. When a timeout expires, the awaited task is cancelled by raising CancelledError inside it, so cleanup code in finally blocks still runs. Limiting concurrency is done with asyncio.Semaphore, for example to keep at most twenty requests open against an upstream API. The default event loop on Linux uses epoll through the selectors module, and uvloop can replace it for higher throughput in network servers. Debug mode, enabled with PYTHONASYNCIODEBUG or asyncio.run with debug set to true, logs coroutines that were never awaited and callbacks that block the loop for more than one hundred milliseconds.',
    ],
  },
};

const es: Record<string, Topic> = {
  persistencia: {
    chunks: [
      'Redis ofrece dos mecanismos de persistencia que pueden usarse por separado o a la vez. Las instantáneas RDB guardan en disco una copia compacta de todo el dataset en momentos concretos, configurados con directivas save como guardar si hubo cien cambios en sesenta segundos. Para crear la instantánea, Redis hace un fork del proceso y el hijo escribe el fichero mientras el padre sigue atendiendo peticiones, aprovechando la copia en escritura del sistema operativo. RDB es ideal para copias de seguridad y arranques rápidos, pero tras una caída se pierden los cambios posteriores a la última instantánea. El fichero resultante se llama dump.rdb por defecto y puede copiarse a otro servidor para restaurar el dataset, porque su formato es estable entre versiones menores de Redis.',
      'El fichero AOF registra cada operación de escritura que recibe el servidor, de forma que al reiniciar Redis puede reconstruir el dataset reproduciendo el registro. La directiva appendfsync controla cuándo se fuerza la escritura a disco: always sincroniza tras cada comando y es la opción más segura pero más lenta, everysec sincroniza una vez por segundo y es el valor por defecto, y no deja la decisión al sistema operativo. Con everysec, en el peor caso se pierde alrededor de un segundo de escrituras. Desde Redis 7 el AOF se divide en un fichero base y ficheros incrementales. Si el AOF queda truncado tras una caída del sistema, Redis puede cargarlo igualmente descartando la última orden incompleta, y la herramienta redis-check-aof permite revisar y reparar el fichero.',
      'Con el tiempo el AOF crece porque contiene operaciones redundantes, así que Redis lo reescribe en segundo plano generando la secuencia mínima de comandos que produce el estado actual. La reescritura automática se controla con auto-aof-rewrite-percentage y auto-aof-rewrite-min-size. En servidores con mucha memoria, el fork necesario para RDB y para la reescritura del AOF puede tardar decenas de milisegundos y duplicar páginas modificadas, por lo que conviene dejar memoria libre y desactivar las transparent huge pages del sistema operativo, tal como recomienda la documentación. La métrica latest_fork_usec del comando INFO indica cuánto tardó el último fork en microsegundos y ayuda a detectar cuándo el tamaño del dataset empieza a afectar a la latencia.',
    ],
  },
  shards: {
    chunks: [
      'Elasticsearch divide cada índice en shards primarios, y cada shard es un índice de Lucene independiente que puede vivir en cualquier nodo del clúster. El número de shards primarios se fija al crear el índice y no puede cambiarse sin reindexar o usar las API de split y shrink. Las réplicas son copias de los shards primarios que aportan alta disponibilidad y capacidad de lectura: una búsqueda puede atenderse desde el primario o desde cualquier réplica. Elasticsearch nunca coloca una réplica en el mismo nodo que su primario, de modo que un clúster de un solo nodo deja las réplicas sin asignar. El número de réplicas, a diferencia del de primarios, puede cambiarse en cualquier momento con la API de ajustes del índice, y Elasticsearch crea o elimina las copias en segundo plano.',
      'La guía de dimensionamiento de Elastic recomienda shards de entre diez y cincuenta gigabytes, y evitar miles de shards pequeños, porque cada shard consume memoria del heap para sus metadatos y segmentos. Una regla práctica es no superar unos veinte shards por cada gigabyte de heap configurado en el nodo. Para datos temporales como logs se usan índices con rollover gestionados por ILM, que crean un índice nuevo cuando el actual alcanza un tamaño o una antigüedad, y mueven los índices antiguos a nodos más baratos antes de borrarlos. Las plantillas de índice aplican automáticamente los ajustes de shards, réplicas y política de ciclo de vida a cada índice nuevo que coincide con su patrón de nombre, sin intervención manual.',
      'El estado de salud del clúster resume la asignación de shards: green significa que todos los primarios y réplicas están asignados, yellow que todos los primarios lo están pero falta alguna réplica, y red que algún shard primario no está asignado y parte de los datos no puede consultarse. La API _cluster/allocation/explain indica por qué un shard sigue sin asignar, por ejemplo por falta de espacio en disco: al superar el umbral alto de disco, por defecto el noventa por ciento, Elasticsearch deja de asignar shards a ese nodo. Si el disco supera además el umbral de inundación, del noventa y cinco por ciento, los índices con shards en ese nodo pasan a solo lectura hasta que se libera espacio.',
    ],
  },
  backups: {
    chunks: [
      'pgBackRest es una herramienta de copias de seguridad para PostgreSQL que admite copias completas, diferenciales e incrementales. Una copia completa guarda todos los ficheros del clúster; una diferencial guarda lo que cambió desde la última completa; y una incremental, lo que cambió desde la última copia de cualquier tipo. Las copias pueden comprimirse con zstd o lz4, cifrarse y enviarse a un repositorio local, a un servidor remoto por SSH o a almacenamiento de objetos compatible con S3, Azure o Google Cloud Storage. Varias copias pueden ejecutarse en paralelo con la opción process-max. La configuración se guarda en pgbackrest.conf, donde cada stanza describe un clúster de PostgreSQL con su directorio de datos y los repositorios en los que se almacenan sus copias.',
      'Para permitir la recuperación a un instante concreto, PostgreSQL debe archivar los segmentos WAL configurando archive_mode en on y archive_command para que llame a pgbackrest archive-push. Con las copias base y el archivo de WAL, pgBackRest puede restaurar el clúster hasta una marca de tiempo, un identificador de transacción o un punto de restauración con nombre, usando la opción type=time junto con target. La restauración con la opción delta solo reescribe los ficheros que difieren, lo que acelera mucho la recuperación de bases de datos grandes. Tras la restauración, PostgreSQL arranca en modo recuperación, reproduce el WAL necesario desde el repositorio y, al alcanzar el objetivo, promociona el clúster para aceptar escrituras.',
      'La política de retención se define con repo1-retention-full, que indica cuántas copias completas se conservan; al expirar una copia completa se eliminan también sus diferenciales, sus incrementales y el WAL que ya no hace falta. Es importante comprobar las copias periódicamente: el comando pgbackrest verify valida los ficheros del repositorio, pero solo una restauración de prueba en otro servidor demuestra que la copia sirve. Muchas organizaciones programan una restauración automática semanal y miden el tiempo de recuperación para comprobar que cumple su objetivo. El comando pgbackrest info muestra las copias disponibles en cada repositorio, su tipo, su tamaño, el rango de WAL que cubren y la fecha de inicio y fin de cada una.',
    ],
  },
  alertas: {
    chunks: [
      'Prometheus evalúa reglas de alerta escritas en PromQL a intervalos regulares definidos por evaluation_interval. Cada regla tiene una expresión, una duración en el campo for y etiquetas y anotaciones. Mientras la expresión devuelve resultados durante menos tiempo que el indicado en for, la alerta está en estado pending; cuando lo supera, pasa a firing y Prometheus la envía a Alertmanager. Las anotaciones como summary y description admiten plantillas, por ejemplo el valor actual con la variable value formateada mediante humanize. Si la expresión deja de devolver resultados, la alerta se resuelve y Alertmanager puede enviar una notificación de resolución si el receptor tiene activada la opción send_resolved.',
      'Alertmanager recibe las alertas de uno o varios servidores Prometheus y se encarga de agruparlas, silenciarlas, inhibirlas y enviarlas a receptores como correo, Slack o PagerDuty. El árbol de rutas decide el receptor según las etiquetas de la alerta, y group_by agrupa alertas relacionadas en una sola notificación. Los tiempos group_wait, group_interval y repeat_interval controlan cuánto se espera antes de notificar, cada cuánto se envían cambios del grupo y cada cuánto se repite una alerta que sigue activa. Las inhibiciones suprimen alertas menores cuando ya existe una más grave. Los silencios se crean desde la interfaz web o con amtool, tienen una fecha de fin obligatoria y se aplican a todas las alertas cuyas etiquetas coinciden con los comparadores indicados.',
      'Una buena alerta describe un síntoma que afecta a los usuarios y no una causa interna. Por eso se recomienda alertar sobre tasas de error, latencias y consumo del presupuesto de errores de un SLO, usando ventanas múltiples de quema, en lugar de alertar sobre el uso de CPU de una máquina. Las reglas de grabación precalculan expresiones costosas y guardan el resultado como una serie nueva, lo que aligera los paneles de Grafana y las propias alertas. Es útil probar las reglas con promtool test rules antes de desplegarlas. Cada alerta debería enlazar en sus anotaciones un runbook con los pasos de diagnóstico y las acciones recomendadas, para que quien recibe el aviso sepa por dónde empezar.',
    ],
  },
  nginx: {
    chunks: [
      'Nginx funciona a menudo como proxy inverso delante de servidores de aplicaciones. La directiva proxy_pass reenvía la petición al servidor indicado, y un bloque upstream permite repartir la carga entre varios servidores con round robin, least_conn o ip_hash. Conviene reenviar las cabeceras Host, X-Real-IP y X-Forwarded-For con proxy_set_header para que la aplicación conozca el cliente original. Los tiempos de espera proxy_connect_timeout y proxy_read_timeout, de sesenta segundos por defecto, determinan cuándo Nginx da por fallida una petición al servidor de origen. Con proxy_next_upstream, Nginx puede reintentar la petición en otro servidor del bloque upstream cuando el primero devuelve un error o no responde a tiempo.',
      'La caché de Nginx se declara con proxy_cache_path, que indica el directorio, la zona de memoria compartida para las claves y el tamaño máximo en disco, y se activa en una ubicación con proxy_cache. proxy_cache_valid fija cuánto tiempo se guardan las respuestas según su código de estado. Con proxy_cache_use_stale Nginx puede servir una respuesta caducada cuando el origen falla o mientras se actualiza, y proxy_cache_lock evita que muchas peticiones simultáneas a la misma clave lleguen a la vez al origen. La cabecera X-Cache-Status ayuda a depurar aciertos y fallos. La clave de caché por defecto combina el esquema, el host y la URI de la petición, y puede cambiarse con proxy_cache_key para incluir cabeceras o cookies cuando las respuestas dependen de ellas.',
      'Nginx termina conexiones TLS con las directivas ssl_certificate y ssl_certificate_key, y se recomienda limitar los protocolos a TLS 1.2 y 1.3. Para proteger el servicio de abusos, limit_req_zone y limit_req limitan la tasa de peticiones por clave, por ejemplo por dirección IP, con un margen de ráfaga configurable, y limit_conn limita las conexiones simultáneas. Tras cambiar la configuración, nginx -t comprueba la sintaxis y nginx -s reload aplica los cambios sin cortar las conexiones abiertas, porque los procesos antiguos terminan sus peticiones antes de salir. Los registros de acceso y de error, configurados con access_log y error_log, permiten comprobar después qué peticiones fueron limitadas, porque Nginx responde con el código 503 por defecto.',
    ],
  },
};

interface Spec {
  language: 'es' | 'en';
  topic: string;
  noise: string;
  order: [number, number, number];
  noisePosition: number;
  question: string;
  answer: string;
}

const specs: Spec[] = [
  {
    language: 'en',
    topic: 'vacuum',
    noise: 'kafka',
    order: [0, 1, 2],
    noisePosition: 3,
    question: 'Why does PostgreSQL need VACUUM and does it free disk space?',
    answer:
      'PostgreSQL needs VACUUM because updates and deletes leave dead tuples behind under multiversion concurrency control. A plain VACUUM marks that space as reusable for new rows and updates the visibility map, and it runs alongside normal reads and writes. It does not give the space back to the operating system. VACUUM FULL rewrites the table and returns the space, but it holds an exclusive lock the whole time, so it blocks every query on the table while it runs. For that reason many teams use pg_repack instead.',
  },
  {
    language: 'en',
    topic: 'vacuum',
    noise: 'certs',
    order: [1, 2, 0],
    noisePosition: 1,
    question: 'When does autovacuum start working on a large table?',
    answer:
      'Autovacuum vacuums a table once its dead tuples exceed the threshold of 50 rows plus 0.2 times the number of rows, so a ten-million-row table waits for about two million dead tuples. You can lower autovacuum_vacuum_scale_factor per table for big, busy tables. Independently, an anti-wraparound vacuum starts when the oldest unfrozen transaction reaches autovacuum_freeze_max_age. Autovacuum also rebuilds bloated indexes automatically every night. The number of concurrent workers is limited by autovacuum_max_workers, three by default.',
  },
  {
    language: 'en',
    topic: 'probes',
    noise: 'asyncio',
    order: [0, 1, 2],
    noisePosition: 2,
    question: 'What is the difference between liveness and readiness probes in Kubernetes?',
    answer:
      'A failing liveness probe makes the kubelet kill and restart the container, while a failing readiness probe only removes the pod from the Service endpoints without restarting it. Startup probes disable both checks until a slow application has started. Liveness probes should stay cheap and must not depend on a database, or an outage restarts every replica at once. Readiness is the right place to shed load during temporary overload. Probes can use HTTP GET, TCP, gRPC or an exec command.',
  },
  {
    language: 'en',
    topic: 'probes',
    noise: 'vacuum',
    order: [2, 0, 1],
    noisePosition: 0,
    question: 'How should I configure probes for a service that takes two minutes to start?',
    answer:
      'Add a startup probe with periodSeconds 10 and failureThreshold 12, which gives the service up to 120 seconds before the kubelet gives up. Until the startup probe succeeds, liveness and readiness checks are disabled. Keep the liveness probe conservative and separate from readiness. Kubernetes also doubles periodSeconds automatically after each failed probe to reduce load on slow containers. Failures show up as pod events in kubectl describe pod, so check there when containers restart in a loop.',
  },
  {
    language: 'en',
    topic: 'certs',
    noise: 'probes',
    order: [0, 1, 2],
    noisePosition: 3,
    question: "When does cert-manager renew a Let's Encrypt certificate, and do pods pick it up automatically?",
    answer:
      "cert-manager renews a certificate when two thirds of its lifetime have passed, so a ninety-day Let's Encrypt certificate is renewed about thirty days before expiry; renewBefore changes that window. The new key pair is written to the same secret and mounted volumes are updated within about a minute. The application still has to reload the files itself, otherwise it keeps serving the old certificate until it restarts. Ingress controllers such as ingress-nginx reload renewed certificates without a restart.",
  },
  {
    language: 'en',
    topic: 'certs',
    noise: 'kafka',
    order: [2, 1, 0],
    noisePosition: 2,
    question: 'Should I use HTTP-01 or DNS-01 challenges for internal services?',
    answer:
      "For internal services use DNS-01: it proves control of the domain with a TXT record created through the DNS provider API, works for names that are not reachable from the internet and can issue wildcard certificates. HTTP-01 needs the domain to be reachable on port 80 and cannot issue wildcards. DNS-01 needs credentials for the DNS zone. Let's Encrypt allows unlimited certificates per domain, so staging is optional. Failed challenges show their error in the Challenge and Order resources.",
  },
  {
    language: 'en',
    topic: 'kafka',
    noise: 'asyncio',
    order: [0, 1, 2],
    noisePosition: 1,
    question: 'Why are some consumers in my Kafka consumer group idle?',
    answer:
      'Each partition is assigned to exactly one consumer of a group at a time, so a group cannot use more consumers than the topic has partitions. With twelve partitions a thirteenth consumer stays idle. To use more consumers you must add partitions to the topic. Other consumer groups reading the same topic are independent and keep their own committed offsets in the __consumer_offsets topic. Watch consumer lag to see whether the group keeps up with the producers.',
  },
  {
    language: 'en',
    topic: 'kafka',
    noise: 'certs',
    order: [1, 0, 2],
    noisePosition: 3,
    question: 'How can I avoid long pauses during Kafka consumer group rebalances?',
    answer:
      'Use the cooperative sticky assignor, which revokes only the partitions that move instead of stopping the whole group as the eager protocol does. Static membership with group.instance.id lets a restarted consumer rejoin without any rebalance. Also keep processing within max.poll.interval.ms, five minutes by default, by lowering max.poll.records. Kafka 3.0 removed rebalances entirely for groups with static membership. A static member that stays away longer than its session timeout is still removed.',
  },
  {
    language: 'en',
    topic: 'asyncio',
    noise: 'probes',
    order: [0, 1, 2],
    noisePosition: 0,
    question: 'Will threads make my CPU-bound Python code faster?',
    answer:
      'No. The global interpreter lock lets only one thread run Python bytecode at a time, so CPU-bound pure Python code does not speed up with threads; threads help only while waiting on input and output. Use multiprocessing or a ProcessPoolExecutor to run on several cores, accepting the cost of pickling arguments. Python 3.13 offers an experimental free-threaded build without the GIL, with some single-thread slowdown. C extensions such as NumPy often release the GIL during long computations, so threads can help there.',
  },
  {
    language: 'en',
    topic: 'asyncio',
    noise: 'vacuum',
    order: [1, 2, 0],
    noisePosition: 2,
    question: 'Why does my asyncio server stall when one request is slow?',
    answer:
      'asyncio runs every coroutine on one event loop thread, and a coroutine only yields at an await. A blocking call such as time.sleep or a synchronous HTTP client inside a coroutine stalls every other task. Move blocking work to a thread with asyncio.to_thread, bound concurrency with a Semaphore, and wrap slow calls in asyncio.timeout. The event loop also restarts itself automatically when a task blocks for more than one second. Debug mode logs callbacks that block the loop for more than one hundred milliseconds.',
  },
  {
    language: 'es',
    topic: 'persistencia',
    noise: 'nginx',
    order: [0, 1, 2],
    noisePosition: 3,
    question: '¿Qué diferencia hay entre RDB y AOF en Redis?',
    answer:
      'RDB guarda instantáneas compactas de todo el dataset en momentos concretos, haciendo un fork para que el proceso hijo escriba el fichero mientras el padre atiende peticiones; es ideal para copias de seguridad, pero tras una caída se pierden los cambios posteriores. AOF registra cada escritura y permite reconstruir el dataset al reiniciar. Con appendfsync everysec se pierde como mucho un segundo. Además, AOF comprime automáticamente los datos con zstd. Desde Redis 7 el AOF se divide en un fichero base y ficheros incrementales.',
  },
  {
    language: 'es',
    topic: 'persistencia',
    noise: 'shards',
    order: [2, 0, 1],
    noisePosition: 1,
    question: '¿Por qué crece el fichero AOF y cómo se controla?',
    answer:
      'El AOF crece porque registra operaciones redundantes, así que Redis lo reescribe en segundo plano con la secuencia mínima de comandos que produce el estado actual. La reescritura automática se ajusta con auto-aof-rewrite-percentage y auto-aof-rewrite-min-size. Como la reescritura necesita un fork, conviene dejar memoria libre y desactivar las transparent huge pages, tal como recomienda la documentación de Redis. La métrica latest_fork_usec de INFO indica cuánto tardó el último fork, y redis-check-aof permite reparar un AOF truncado.',
  },
  {
    language: 'es',
    topic: 'shards',
    noise: 'alertas',
    order: [0, 1, 2],
    noisePosition: 2,
    question: '¿Cuántos shards debería tener un índice de Elasticsearch?',
    answer:
      'Elastic recomienda shards de entre diez y cincuenta gigabytes y evitar miles de shards pequeños, porque cada shard consume heap para sus metadatos. Como regla práctica, no superes unos veinte shards por gigabyte de heap. El número de primarios se fija al crear el índice y solo cambia reindexando o con split y shrink. Para logs conviene usar rollover con ILM. Elasticsearch reparte automáticamente los shards grandes en shards más pequeños cada noche. El número de réplicas sí puede cambiarse en cualquier momento.',
  },
  {
    language: 'es',
    topic: 'shards',
    noise: 'backups',
    order: [1, 2, 0],
    noisePosition: 0,
    question: '¿Por qué mi clúster de Elasticsearch está en amarillo?',
    answer:
      'El estado yellow indica que todos los shards primarios están asignados pero falta alguna réplica. Es lo normal en un clúster de un solo nodo, porque Elasticsearch nunca coloca una réplica en el mismo nodo que su primario. La API _cluster/allocation/explain explica por qué un shard no se asigna, por ejemplo por superar el umbral alto de disco, que por defecto es el noventa por ciento. Por encima del noventa y cinco por ciento, los índices del nodo pasan a solo lectura hasta que se libera espacio.',
  },
  {
    language: 'es',
    topic: 'backups',
    noise: 'persistencia',
    order: [0, 1, 2],
    noisePosition: 3,
    question: '¿Qué tipos de copia de seguridad admite pgBackRest?',
    answer:
      'pgBackRest admite copias completas, diferenciales e incrementales: la diferencial guarda lo cambiado desde la última completa y la incremental lo cambiado desde la última copia de cualquier tipo. Las copias pueden comprimirse con zstd o lz4, cifrarse y enviarse a un repositorio local, a un servidor remoto por SSH o a almacenamiento compatible con S3. Con process-max se ejecutan en paralelo. pgBackRest también replica la base de datos en tiempo real a otro servidor. La configuración de cada clúster se define como una stanza en pgbackrest.conf.',
  },
  {
    language: 'es',
    topic: 'backups',
    noise: 'nginx',
    order: [1, 0, 2],
    noisePosition: 2,
    question: '¿Cómo recupero PostgreSQL a un instante concreto con pgBackRest?',
    answer:
      'Primero PostgreSQL debe archivar el WAL, con archive_mode en on y un archive_command que llame a pgbackrest archive-push. Después puedes restaurar hasta una marca de tiempo con type=time y target, o hasta un identificador de transacción o un punto de restauración con nombre. La opción delta solo reescribe los ficheros que difieren, lo que acelera la recuperación. Conviene además probar las restauraciones cada semana en otro servidor. Tras restaurar, PostgreSQL reproduce el WAL y promociona el clúster al alcanzar el objetivo.',
  },
  {
    language: 'es',
    topic: 'alertas',
    noise: 'shards',
    order: [0, 1, 2],
    noisePosition: 1,
    question: '¿Qué significa que una alerta de Prometheus esté en pending?',
    answer:
      'Una alerta está en pending mientras su expresión PromQL devuelve resultados durante menos tiempo del indicado en el campo for. Cuando supera esa duración pasa a firing y Prometheus la envía a Alertmanager, que la agrupa, la silencia o la inhibe y la notifica a receptores como Slack o PagerDuty. Las reglas se evalúan cada evaluation_interval. Prometheus reintenta además cada alerta pending tres veces antes de descartarla. Cuando la expresión deja de devolver resultados, la alerta se resuelve.',
  },
  {
    language: 'es',
    topic: 'alertas',
    noise: 'backups',
    order: [2, 1, 0],
    noisePosition: 3,
    question: '¿Sobre qué debería alertar para no despertar al equipo sin motivo?',
    answer:
      'Alerta sobre síntomas que afectan a los usuarios, como tasas de error, latencias y consumo del presupuesto de errores de un SLO con ventanas múltiples de quema, y no sobre el uso de CPU de una máquina. Agrupa las alertas relacionadas con group_by en Alertmanager, usa inhibiciones para suprimir avisos menores cuando ya hay uno grave y prueba las reglas con promtool test rules antes de desplegarlas. Enlaza además un runbook en las anotaciones de cada alerta para que quien recibe el aviso sepa por dónde empezar.',
  },
  {
    language: 'es',
    topic: 'nginx',
    noise: 'alertas',
    order: [0, 1, 2],
    noisePosition: 0,
    question: '¿Cómo configuro Nginx como proxy inverso con caché?',
    answer:
      'Usa proxy_pass hacia un bloque upstream para repartir la carga y reenvía Host, X-Real-IP y X-Forwarded-For con proxy_set_header. Declara la caché con proxy_cache_path y actívala con proxy_cache, fijando la duración con proxy_cache_valid. proxy_cache_use_stale sirve respuestas caducadas si el origen falla y proxy_cache_lock evita avalanchas sobre la misma clave. Nginx invalida la caché automáticamente cuando cambia el origen. La cabecera X-Cache-Status ayuda a depurar aciertos y fallos de la caché.',
  },
  {
    language: 'es',
    topic: 'nginx',
    noise: 'persistencia',
    order: [2, 0, 1],
    noisePosition: 2,
    question: '¿Cómo limito los abusos y aplico cambios en Nginx sin cortar conexiones?',
    answer:
      'Define una zona con limit_req_zone y aplícala con limit_req para limitar la tasa de peticiones por dirección IP con un margen de ráfaga, y usa limit_conn para las conexiones simultáneas. Para aplicar cambios, comprueba la sintaxis con nginx -t y recarga con nginx -s reload: los procesos antiguos terminan sus peticiones antes de salir, así que no se cortan las conexiones abiertas. Las peticiones rechazadas por el límite reciben por defecto un código 503 y quedan en el registro de errores.',
  },
];

function build(spec: Spec, index: number): RagSample {
  const topics = spec.language === 'es' ? es : en;
  const own = topics[spec.topic]!.chunks;
  const noise = topics[spec.noise]!.chunks[index % 3]!;
  const contexts = spec.order.map((i) => own[i]!);
  contexts.splice(spec.noisePosition, 0, noise);
  return {
    traceId: `bench-${String(index + 1).padStart(2, '0')}`,
    question: spec.question,
    answer: spec.answer,
    contexts,
    language: spec.language,
    meta: { topic: spec.topic },
  };
}

export const benchSamples: RagSample[] = specs.map(build);
