#!/usr/bin/perl -w
# Runs ROUGE-1.5.5's own stemming code (its MorphStem, stem and initialise subs, extracted
# verbatim from the script) on the words of stdin, one a line; prints one stem a line.
# Usage: perl tests/rouge155_stem.pl ROUGE-1.5.5.pl WordNet-2.0.exc.db < words
use strict;
use DB_File;
my ($script, $db) = @ARGV;
open(my $fh, '<', $script) or die "cannot open $script: $!\n";
my $src = do { local $/; <$fh> };
close($fh);
my ($morph) = $src =~ /^(sub MorphStem \{.*?^\})/ms or die "no MorphStem in $script\n";
my ($porter) = $src =~ /^(# Porter stemmer in Perl.*)\z/ms or die "no stemmer in $script\n";
our %exceptiondb;
tie %exceptiondb, 'DB_File', $db, O_RDONLY, 0440, $DB_HASH or die "cannot open $db: $!\n";
{
  no strict;
  eval "$porter\n$morph\n1;" or die "cannot load the stemmer: $@\n";
  &initialise();
}
while (my $w = <STDIN>) {
  chomp($w);
  my $s = length($w) > 3 ? MorphStem($w) : $w;
  print((defined($s) ? $s : ''), "\n");
}
