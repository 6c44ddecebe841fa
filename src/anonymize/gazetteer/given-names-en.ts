/** Given names common in English-speaking countries and among people living in Spain (European, Arabic, Asian names). Whitespace separated. */
export const GIVEN_NAMES_EN = `
Aaron Abigail Adam Adrian Agnes Aidan Alan Albert Alexander Alexandra Alfie Alice Alison Allison Amanda Amber Amelia Amy Andrew
Angela Anna Anne Annie Anthony Archie Arthur Ashley Audrey Austin Ava Barbara Barry Becky Benjamin Ben Bernard Beth Bethany
Betty Beverly Billy Bradley Brandon Brenda Brian Bridget Brittany Bruce Bryan Caleb Cameron Carl Caroline Carolyn Catherine
Charles Charlie Charlotte Chelsea Cheryl Chloe Chris Christian Christina Christine Christopher Claire Clara Colin Connor Craig
Cynthia Daisy Dale Daniel Danielle Darren David Debbie Deborah Declan Denise Dennis Derek Diana Diane Donald Donna Doris
Dorothy Douglas Dylan Edward Edith Eleanor Elijah Elizabeth Ella Ellie Emily Emma Eric Ethan Evelyn Finn Fiona Florence
Frances Freddie Frederick Gail Gareth Gary Gavin Gemma George Georgia Gerald Gillian Gordon Graham Gregory Hannah Harold
Harriet Harry Harvey Hazel Heather Helen Henry Hugh Ian Imogen Isaac Isabel Isabella Isla Jack Jackson Jacob Jacqueline Jake
James Jamie Jane Janet Janice Jasmine Jason Jean Jeffrey Jennifer Jeremy Jessica Joan Joanna Joe Joel John Jonathan Jordan
Joseph Joshua Joyce Judith Judy Julia Julian Julie Justin Karen Katherine Kathleen Kathryn Katie Kayla Keith Kelly Kenneth
Kevin Kieran Kimberly Kyle Laura Lauren Lawrence Leah Leo Leon Lewis Liam Lilly Linda Lisa Logan Lois Louis Louise Lucas Lucy
Luke Lydia Madison Maisie Margaret Maria Marie Marilyn Martha Martin Mary Matthew Megan Melanie Melissa Michael Michelle Mildred
Molly Nancy Natalie Nathan Neil Nicholas Nicola Nicole Noah Norman Oliver Olivia Oscar Owen Pamela Patricia Patrick Paul
Paula Peter Philip Phoebe Poppy Rachel Ralph Rebecca Reece Rhys Richard Robert Robin Roger Ronald Rory Ruth Ryan Samantha
Samuel Sandra Sara Sarah Scott Sean Sebastian Sharon Shirley Simon Sophia Sophie Stacey Stanley Stephanie Stephen Steven
Stuart Susan Teresa Terence Theo Theodore Thomas Timothy Toby Tracey Tyler Vanessa Victoria Vincent Virginia Walter Wayne
Wendy William Zachary Zoe Aiden Alexis Alyssa Andrea Angelina Ariana Aubrey Avery Bailey Blake Brooke Caitlin Carter Cody
Colton Dakota Destiny Dominic Easton Elias Eliza Evan Gabriel Gabriella Gianna Grayson Hailey Hayden Hudson Hunter Isaiah
Jaden Jayden Jeremiah Jocelyn Jonah Josiah Julian Kaitlyn Kaylee Kennedy Layla Leila Levi Lillian Lincoln Mackenzie Makayla
Mason Maya Mia Miles Mila Morgan Naomi Nevaeh Nolan Paisley Parker Peyton Piper Quinn Riley Savannah Serenity Skylar Stella
Sydney Taylor Trinity Violet Wyatt Xavier Zoey Agatha Alistair Angus Ainsley Bernadette Bronwen Callum Cormac Dermot Eamon
Eileen Eoin Euan Fergus Finlay Gwen Gwyneth Hamish Iain Isobel Kirsty Lachlan Mairead Niamh Orla Padraig Rhiannon Ruairi
Seamus Shona Siobhan Sinead Tadhg Aoife Ciara Ciaran Caoimhe Saoirse Bryony Clive Cyril Dudley Edmund Ernest Geoffrey Gilbert
Horace Howard Humphrey Leonard Malcolm Nigel Percy Reginald Rupert Trevor Wilfred Winston Beatrice Cecily Constance Edna
Enid Ethel Gertrude Gladys Gwendolyn Harriet Ingrid Irene Jemima Lavinia Mabel Marjorie Maud Millicent Muriel Nora Philippa
Rosalind Sybil Thelma Ursula Vera Winifred Yvonne Abdul Abdullah Ahmed Ahmad Ali Amina Amir Aisha Ayesha Bilal Fatima Fatma
Hamza Hassan Hussein Ibrahim Imran Jamal Karim Khadija Khalid Layla Mariam Mohammed Muhammad Mustafa Nadia Omar Rashid Salma
Samir Yasmin Yousef Youssef Zainab Zahra Zara Hamid Said Rachid Nabil Naima Latifa Souad Hicham Karima Mounir Abdelkader
Andrei Alexandru Bogdan Cristi Cristian Dan Florin Gheorghe Ioana Ion Ionut Marius Mihai Mihaela Nicoleta Ovidiu Radu Raluca
Sorin Vasile Valentina Adriana Elena Daniela Gabriela Oana Alina Irina Natasha Olga Svetlana Tatiana Dmitri Sergei Vladimir
Ivan Igor Oleg Yuri Katya Anastasia Oksana Iryna Olena Viktor Mykola Taras Bohdan Piotr Pawel Krzysztof Tomasz Agnieszka
Katarzyna Magdalena Malgorzata Wei Li Ming Jing Xiao Yan Hui Lei Jun Hao Yu Chen Mei Ling Hiroshi Takashi Yuki Haruto Sakura
Kenji Akira Naoko Priya Rahul Ravi Anil Sunil Deepak Sanjay Arjun Amit Pooja Neha Anjali Raj Vikram Lakshmi Giuseppe Giovanni
Francesca Alessandro Alessandra Matteo Lorenzo Luca Marco Chiara Federica Giulia Stefano Paolo Roberta Antonella Fabio
Davide Simone Pierre Jean Jacques François Françoise Amélie Camille Chloé Élodie Julien Mathieu Nicolas Sébastien Thierry
Véronique Yannick Margaux Léa Hélène Hans Klaus Jürgen Wolfgang Dieter Stefan Sabine Ursula Birgit Heike Lukas Jonas Leon
Felix Lena Anke Katrin Sven Lars Erik Ingrid Astrid Sigrid Nils Bjorn Björn Freya Joao João Gonçalo Tiago Rui Nuno Inês Beatriz
Catarina Joana Mariana Rita Teresa Ana Sofia Pedro Miguel Duarte Afonso Leonor Matilde Hugo Fernanda Thiago Rodrigo Gabriel
Bruna Luana Larissa Letícia Vinícius Gustavo Felipe Leandro Kwame Kofi Ama Abena Chinedu Chioma Ngozi Oluwaseun Tunde Ade
Amadou Mamadou Moussa Ousmane Aminata Fatou Awa Ibrahima Cheikh Seydou Kaito Minh Thanh Nguyen Anh Linh Tuan Hoang
`;

/** Short forms and names missing above that people actually use in chats and signatures. */
export const GIVEN_NAMES_EN_SHORT = `
Tom Tommy Tim Timmy Jim Jimmy Joe Joey Ben Benny Sam Sammy Dan Danny Nick Nicky Mike Mikey Matt Alex Andy Tony Steve Stevie
Dave Davy Rob Robbie Bobby Kate Katy Kathy Liz Lizzie Beth Jen Jenny Jess Jessie Sue Susie Ann Annie Meg Maggie Peggy Becca Vicky
Nikki Ali Abby Gabby Debbie Pam Cathy Chrissy Chris Kris Ted Teddy Fred Freddy Ed Eddie Will Willie Bill Billy Hank Harry Larry
Jerry Terry Gerry Barry Gary Kenny Ken Lenny Lou Louie Marcus Marc Mick Mickey Pete Phil Ricky Rick Richie Ron Ronnie Ross Roy
Russ Stan Steph Ty Vic Vince Walt Wes Zach Zack Jay Jake Josh Drew Cole Chad Troy Trent Brett Brent Clint Curt Kurt Dean Glenn
Grace Hope Faith Joy Eve Ivy Rose Lily Daisy Ruby Amber Jade Holly Iris Summer June April May Dawn Pearl Hazel Heather Violet
Marcia Marsha Marjorie Noreen Maureen Doreen Kathleen Colleen Erin Shannon Tara Keira Kira Lorna Moira Morag Ailsa Elspeth
Eliot Elliot Felicity Harriet Imogen Jocasta Octavia Persephone Rosamund Tabitha Cordelia Ophelia Portia Beatrix Clementine
Jasper Rufus Barnaby Crispin Giles Hugo Jolyon Montague Peregrine Quentin Ruaridh Torquil Caspar Ptolemy Benedict Fenella
Jamal Tyrone DeShawn Darnell Latoya Keisha Shanice Tanisha Imani Aaliyah Malik Andre Terrell Jermaine Marquis Dwayne Reggie
Nathan Nate Nathaniel Emmett Everett Silas Ezra Axel Jude Rowan Arlo Otis Finley Harley Jesse Kai Reuben Tobias Stefan Dominik
Adeyemi Chiamaka Emeka Ifeoma Obinna Uche Yaw Kojo Akosua Efua Nana Kwabena Abimbola Folake Bukola Kehinde Taiwo Yetunde
`;
