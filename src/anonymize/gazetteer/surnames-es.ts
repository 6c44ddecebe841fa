/** Surnames common in Spain and Latin America, including Catalan, Basque and Galician ones. Whitespace separated. */
export const SURNAMES_ES = `
García González Rodríguez Fernández López Martínez Sánchez Pérez Gómez Martín Jiménez Ruiz Hernández Díaz Moreno Muñoz Álvarez
Romero Alonso Gutiérrez Navarro Torres Domínguez Vázquez Ramos Gil Ramírez Serrano Blanco Molina Morales Suárez Ortega Delgado
Castro Ortiz Rubio Marín Sanz Núñez Iglesias Medina Garrido Cortés Castillo Santos Lozano Guerrero Cano Prieto Méndez Cruz
Calvo Gallego Vidal León Márquez Herrera Peña Flores Cabrera Campos Vega Fuentes Carrasco Diez Díez Caballero Reyes Nieto Aguilar
Pascual Santana Herrero Lorenzo Montero Hidalgo Giménez Ibáñez Ferrer Durán Santiago Benítez Mora Vicente Vargas Arias Carmona
Crespo Román Pastor Soto Sáez Velasco Moya Soler Parra Esteban Bravo Gallardo Rojas Pardo Merino Franco Espinosa Izquierdo
Lara Rivas Silva Rivera Casado Arroyo Redondo Camacho Rey Vera Otero Luque Galán Montes Ríos Sierra Segura Carrillo Marcos Marti
Soriano Mendoza Robles Bernal Vila Valero Palacios Exposito Expósito Benito Varela Andrés Pereira Heredia Bueno Villar Contreras Guerra
Salazar Mateo Trujillo Aguilera Roldán Miranda Gracia Hernando Menéndez Ibarra Zamora Rivero Quintana Beltrán Andreu Vallejo
Toledo Rojo Acosta Sosa Cuesta Escobar Padilla Cuenca Vázquez Osorio Rosales Mesa Plaza Ponce Aparicio Maldonado Barroso Tapia
Sancho Correa Sola Macías Ávila Villanueva Solís Luna Alarcón Rincón Collado Barrera Bermúdez Estévez Pons Simón Mesa Millán
Polo Lázaro Aranda Vidal Tomás Salas Rosa Escudero Blázquez Chacón Peinado Pineda Rico Lucas Valencia Orozco Manzano Salinas
Bermejo Paredes Fajardo Quesada Cordero Casas Mateos Arenas Rueda Gonzalo Cabello Navas Ruano Avilés Alcaraz Cobo Bautista
Carretero Vergara Miguel Barrios Sevilla Burgos Ferrero Tejero Tejada Santamaría Mena Hurtado Llorente Sáenz Amador Mata
Palomo Ojeda Valverde Mejía Moral Carmona Moyano Borrego Ballesteros Marco Mariscal Bonilla Bastida Chaves Jurado Nieves Juárez
Pozo Gimeno Estrada Galindo Zapata Arjona Rey Alcántara Ferrández Morillo Carrión Benavente Ortuño Cózar Espejo Lorente Pacheco
Ocaña Rebollo Salgado Domenech Doménech Sáinz Valle Sepúlveda Toro Aguado Guillén Rubio Quiroga Figueroa Jurado Escribano
Calderón Valdés Valderrama Olmedo Olmo Vela Huerta Manrique Zurita Alba Arnau Brito Cisneros Coronado Dorado Echeverría
Echevarría Elizondo Espinoza Fierro Frías Gaitán Garcés Godoy Granados Ledesma Lobo Llamas Maestre Mancebo Montoya Mota
Naranjo Ochoa Oliva Olivares Ordóñez Orellana Pacheco Palma Paz Peralta Perea Pizarro Portillo Quiles Ribera Robledo Rocha Rosado
Saavedra Salcedo Sandoval Sanjuán Segovia Solano Soria Tello Téllez Tirado Tovar Trigo Ureña Uribe Valenzuela Vaquero Villalba
Villegas Yáñez Zambrano Zamorano Zaragoza Abad Acevedo Adrover Agüero Alcalde Alfaro Almagro Almansa Alonso Alvarado Amaya
Anguita Antón Aranda Arévalo Argüelles Armas Arteaga Asensio Ayala Baena Bañuelos Barbero Barragán Becerra Belmonte Benavides
Berenguer Blasco Bosch Botella Bravo Briones Bustos Caballero Cabezas Cáceres Calero Calleja Camino Campillo Canales Cano
Cantero Carbonell Cardona Carmona Carvajal Casares Castaño Castellano Castells Castellanos Catalán Cazorla Cebrián Cerdá Cervera
Chamorro Cid Cifuentes Clemente Climent Coll Colomer Company Conde Cortés Costa Criado Cuadrado Cuevas Dávila Dominguez Duarte
Egea Escrivá Espada Esteve Fabregat Falcón Fernández Ferreira Ferreiro Feliu Font Fontana Fornés Fraile Gago Galiano Gálvez Gámez
Garay Garrido Gaspar Girón Godoy Gordillo Grau Guardiola Guijarro Guzmán Heras Herranz Hervás Higuera Hinojosa Horrillo Iniesta
Jaén Jara Jover Lamas Landa Lasa Leal Linares Llobet Lloret Lobato Lucena Madrid Maestro Mangas Mansilla Mañas Marrero Mas Masip
Medrano Meléndez Mercader Mir Miralles Monzón Morán Morata Moreira Mulet Murillo Nadal Nogueira Noguera Oliver Ollero Ordoñez
Orts Pallarés Palau Pamies Parejo Pascual Pavón Pedraza Pedrosa Peiró Pelayo Perales Pérez Picó Piñeiro Piñero Piqué Planas
Pons Porras Prats Puig Puigdemont Pujol Quintero Rabadán Ramón Real Recio Reig Requena Ribas Ribes Ripoll Riquelme Riera
Robles Roca Roig Ros Rosell Rovira Rubiales Ruz Sabater Sala Salvador Salvà Sampedro Sanchís Sanchis Santacana Sarmiento Segarra
Serra Serrat Sevillano Solà Soldevila Soto Suñer Taboada Tarrés Tena Tomàs Tormo Torrent Torrens Trillo Valls Vallés Vázquez
Ventura Verdú Vich Vilanova Vilar Vives Xicola Zafra Zamora Aguirre Arrieta Arregui Arrizabalaga Azcona Barrenetxea Beitia
Bengoetxea Berasategui Elorza Etxeberria Etxebarria Echeverría Egaña Elizalde Errazti Garaikoetxea Garmendia Goikoetxea
Goñi Gorostiza Ibarguren Iturriaga Iturbe Izaguirre Larrañaga Lasarte Lizarraga Madariaga Mendizábal Mugica Múgica Olano
Olaizola Ormazábal Otegi Otxoa Txurruka Urrutia Urkijo Uriarte Zabala Zubizarreta Zubiri Zuloaga Alberdi Altuna Amezaga
Aramburu Arana Arrieta Artola Azpiazu Basterretxea Bilbao Elizondo Erdozain Gabilondo Galarraga Irigoyen Jauregui Larrea Lekue
Lopetegui Mendieta Oiarzabal Sagastume Uranga Zubillaga Castiñeira Fraga Feijoo Fariña Lamas Lema Losada Mosquera Outeiro
Pazos Regueiro Rial Seoane Souto Sotelo Vilariño Varela Bouzas Carballo Castro Couto Dopico Figueira Gondar Iglesias Loureiro
Meijide Míguez Novo Pena Pombo Quintela Rivas Rodal Taboada Valiño Vieites Villaverde Abellán Albaladejo Alcocer Andújar
Arcos Arroyo Bárcena Bejarano Cabanillas Calvente Camps Cañizares Capdevila Casanova Castilla Cervantes Corbalán Corral
Espinar Estrella Ferrándiz Galván Gamboa Garzón Gisbert Herraiz Jordán Lagos Llanos Lozada Manjón Mármol Mayoral Melgar Mendez
Moreno Ocampo Orduña Osuna Palencia Pantoja Parrilla Peñalver Puente Rosario Salvatierra Sastre Solera Tamayo Torralba
Trujillo Vallejo Vizcaíno Zarate Zárate
fuente heras olmo pozo riva hoz serna prada frutos mata
`;
